import Foundation
import LCP
import Shared
import Testing
import TestSupport

/// LCP publications that open restricted say why by case (#30 item 2): a revoked provider
/// certificate, an expired loan, a returned loan and a wrong passphrase each map to their own
/// restriction, with their own advice — a revoked certificate is not a loan to renew or return.
/// Real packages signed by the test PKI, opened through the publication opener.
@Suite struct ProtectionRestrictionTests {
    /// The loan advice the terminal used to give whatever the reason ("renew or return").
    static let loanAdvice = "renew or return"

    /// A package with one chapter under `spec`'s license.
    static func book(_ spec: LicenseSpec, folder: String = "lcp-restriction") throws -> String {
        let path = Fixtures.temporaryDirectory(folder) + "/book.epub"
        try PackageForge.epub(at: path, license: try LicenseForge.make(spec), resources: [
            ForgedResource("OEBPS/chapter1.xhtml", PackageForge.text(2000), mediaType: "application/xhtml+xml"),
        ])
        return path
    }

    /// The restriction of the publication at `path`, opened with `credentials`.
    static func restriction(_ path: String, credentials: String?, lcp: TestLCP) async throws -> ProtectionRestriction? {
        let publication = try await lcp.open(path, credentials: credentials)
        defer { publication.close() }
        #expect(publication.isRestricted == (publication.protectionRestriction != nil))
        return publication.protectionRestriction
    }

    @Test func aRevokedProviderCertificateIsUntrustedNotALoan() async throws {
        var spec = LicenseSpec()
        spec.signer = TestPKI.shared.revoked
        let path = try Self.book(spec)
        let restriction = try #require(try await Self.restriction(path, credentials: "open sesame",
                                                                   lcp: try TestLCP(crl: TestPKI.shared.crlPEM)))
        #expect(restriction == .untrusted(.certificateRevoked))
        #expect(restriction.message.contains("certificate"))
        #expect(restriction.advice.contains("new copy"), "\(restriction.advice)")
        #expect(!restriction.advice.lowercased().contains(Self.loanAdvice))
        #expect(!restriction.advice.lowercased().contains("renew"))
        #expect(!restriction.canRetry)
    }

    @Test func anExpiredLoanWithoutRenewalSaysToBorrowAgain() async throws {
        var spec = LicenseSpec()
        spec.rights = JSONObject(["start": .string("2025-01-01T00:00:00Z"), "end": .string("2026-02-01T00:00:00Z")])
        let path = try Self.book(spec)
        let restriction = try await Self.restriction(path, credentials: "open sesame", lcp: try TestLCP())
        #expect(restriction == .loanInactive(.expired(RFC3339Date.parse("2026-02-01T00:00:00Z")), renewable: false))
        #expect(restriction?.message == "This loan expired on 2026-02-01 00:00 UTC.")
        #expect(restriction?.advice.contains("borrow the book again") == true)
        #expect(restriction?.canRetry == false)
    }

    @Test func anExpiredLoanTheProviderRenewsSaysToRenewAndRetry() async throws {
        let server = try StatusServer()
        var spec = LicenseSpec()
        spec.statusURL = server.statusURL(spec.id)
        spec.rights = JSONObject(["start": .string("2025-01-01T00:00:00Z"), "end": .string("2026-02-01T00:00:00Z")])
        let path = try Self.book(spec)
        try server.configure(spec.id, ["status": "active"])
        let restriction = try await Self.restriction(path, credentials: "open sesame", lcp: try TestLCP())
        #expect(restriction == .loanInactive(.expired(RFC3339Date.parse("2026-02-01T00:00:00Z")), renewable: true))
        #expect(restriction?.advice.contains("Renew the loan") == true)
        #expect(restriction?.canRetry == true)
    }

    @Test func aReturnedLoanSaysToBorrowAgainAndIsNotRetried() async throws {
        let server = try StatusServer()
        var spec = LicenseSpec()
        spec.statusURL = server.statusURL(spec.id)
        let path = try Self.book(spec)
        // The provider announces a newer license it will not give: the status decides.
        try server.configure(spec.id, ["status": "returned", "updated_license": "2026-03-01T00:00:00Z",
                                       "updated_status": "2026-03-02T10:20:00Z", "license_http": 401])
        let restriction = try await Self.restriction(path, credentials: "open sesame", lcp: try TestLCP())
        #expect(restriction == .loanInactive(.returned(RFC3339Date.parse("2026-03-02T10:20:00Z")), renewable: false))
        #expect(restriction?.advice.contains("returned book cannot be read") == true)
        #expect(restriction?.advice.lowercased().contains(Self.loanAdvice) == false)
        #expect(restriction?.canRetry == false)
    }

    @Test func aWrongPassphraseAsksAgainWithTheHint() async throws {
        let path = try Self.book(LicenseSpec())
        let restriction = try await Self.restriction(path, credentials: "not the one", lcp: try TestLCP())
        #expect(restriction == .credentialsRequired(.init(kind: .passphrase, hint: "The usual one", refused: true)))
        #expect(restriction?.message == "Wrong passphrase. Hint: The usual one")
        #expect(restriction?.advice.contains("passphrase") == true)
        #expect(restriction?.canRetry == true)
    }

    @Test func aMissingPassphraseIsNotARefusal() async throws {
        let path = try Self.book(LicenseSpec())
        let restriction = try await Self.restriction(path, credentials: nil, lcp: try TestLCP())
        #expect(restriction == .credentialsRequired(.init(kind: .passphrase)))
        #expect(restriction?.message == "A passphrase is required to open this publication.")
    }

    /// Each case has its own advice: none borrows another's.
    @Test func everyCaseHasItsOwnAdvice() {
        let cases: [ProtectionRestriction] = [
            .untrusted(.certificateRevoked), .loanInactive(.expired(nil), renewable: false),
            .loanInactive(.expired(nil), renewable: true), .loanInactive(.returned(nil), renewable: false),
            .loanInactive(.revoked(nil), renewable: false), .credentialsRequired(.init(kind: .passphrase)),
            .credentialsRequired(.init(kind: .password)), .unsupported(scheme: "Adobe ADEPT"), .untrusted(.signatureInvalid),
            .unavailable(.unreachable(nil)),
        ]
        #expect(Set(cases.map(\.advice)).count == cases.count)
        #expect(cases.allSatisfy { !$0.advice.lowercased().contains(Self.loanAdvice) })
    }

    /// LCP errors map by case, whatever their message says ("revoked" is in both of these).
    @Test func theMappingFollowsTheCaseNotTheWords() {
        #expect(LCPError.certificateRevoked.userMessage.contains("revoked"))
        #expect(LCPError.certificateRevoked.protectionRestriction == .untrusted(.certificateRevoked))
        #expect(LCPError.status(.revoked(nil, devices: 1)).protectionRestriction == .loanInactive(.revoked(nil), renewable: false))
        #expect(LCPError.profileNotSupported("http://readium.org/lcp/profile-2.0").protectionRestriction
            == .unsupported(scheme: "Readium LCP (profile-2.0 profile)"))
        #expect(LCPError.licenseBusy.protectionRestriction?.canRetry == true)
    }

    /// `lectern render` on a book signed with a revoked certificate says so, with the
    /// certificate's advice, not the loan's (the CLI switches on the case).
    @Test func theCommandLineGivesTheRevokedCertificateItsOwnAdvice() throws {
        let server = try StatusServer()
        try server.serveFile("ca.crl", ["body_b64": try CRLServiceTests.crl().base64EncodedString()])
        var spec = LicenseSpec()
        spec.signer = TestPKI.shared.revoked
        let path = try Self.book(spec, folder: "lcp-restriction-cli")
        let lectern = LecternProcess()
        let environment = ["LECTERN_LCP_ANCHORS": TestPKI.shared.directory + "/ca/ca.pem",
                           "LECTERN_LCP_CRL_URL": server.fileURL("ca.crl")]
        // The first run fetches the revocation list (waiting for it a moment before exiting).
        _ = try lectern.run(["check", "--passphrase", "open sesame", path], timeout: 60, environment: environment)
        let render = try lectern.run(["render", "--passphrase", "open sesame", path], timeout: 60, environment: environment)
        #expect(render.status == 3, "\(render.stderr)")
        #expect(render.stdout.isEmpty)
        #expect(render.stderr.contains("The provider certificate that signed this license has been revoked."), "\(render.stderr)")
        #expect(render.stderr.contains("ask the provider for a new copy of the book"), "\(render.stderr)")
        #expect(!render.stderr.lowercased().contains("renew"), "\(render.stderr)")
        // `info --json` gives the same advice to scripts.
        let info = try lectern.run(["info", "--json", "--passphrase", "open sesame", path], timeout: 60, environment: environment)
        let protection = (info.json as? [String: Any])?["protection"] as? [String: Any]
        #expect(protection?["restricted"] as? Bool == true, "\(info.stdout)")
        #expect(protection?["advice"] as? String == ProtectionRestriction.untrusted(.certificateRevoked).advice, "\(info.stdout)")
    }
}
