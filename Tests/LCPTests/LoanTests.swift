import Foundation
@testable import LCP
import LibZip
import Shared
import Testing
import TestSupport

/// Renewing and returning loans against the stateful License Status server, which behaves
/// like the reference server (re-signed licenses, 200-unchanged renewals beyond the limit,
/// problem documents, a 404 before the status exists).
@Suite struct LoanTests {
    let server: StatusServer

    init() throws {
        server = try StatusServer()
    }

    static let end = "2027-01-01T00:00:00Z"
    static let limit = "2027-06-01T00:00:00Z"

    /// A book on a one-loan license the server knows (and re-signs when it changes it).
    func book(state: [String: Any] = [:], _ configure: (inout LicenseSpec) -> Void = { _ in }) throws -> (path: String, license: ForgedLicense) {
        var spec = LicenseSpec()
        spec.statusURL = server.statusURL(spec.id)
        spec.rights = JSONObject(["print": .int(10), "copy": .int(100), "end": .string(Self.end)])
        configure(&spec)
        let license = try LicenseForge.make(spec)
        let path = Fixtures.temporaryDirectory("lcp-loan") + "/book.epub"
        try PackageForge.epub(at: path, license: license, resources: [
            ForgedResource("OEBPS/chapter1.xhtml", PackageForge.text(3000), mediaType: "application/xhtml+xml"),
        ])
        var values: [String: Any] = ["license": license.text, "signer": ["key": spec.signer.keyPath], "potential_end": Self.limit]
        values.merge(state) { $1 }
        try server.configure(spec.id, values)
        return (path, license)
    }

    /// Opens the book with its passphrase (which registers the device: the loan is active).
    func open(_ path: String, _ lcp: TestLCP) async throws -> LCPLicense {
        try await lcp.retrieveLicense(path, credentials: "open sesame").get()
    }

    /// License downloads the server saw for `licenseID`.
    func licenseDownloads(_ licenseID: String) throws -> Int {
        try server.log().filter { $0.method == "GET" && $0.path.hasSuffix("/licenses/\(licenseID)/license") }.count
    }

    /// A renewal downloads the renewed license once (it used to be fetched twice: by the
    /// validation, then again by the renewal).
    @Test func aRenewalDownloadsTheRenewedLicenseOnce() async throws {
        let (path, forged) = try book()
        let license = try await open(path, try TestLCP())
        try server.clearLog()
        try await license.renewLoan(with: Delegate("2027-03-01T00:00:00Z"))
        #expect(license.license.rights.end == RFC3339Date.parse("2027-03-01T00:00:00Z"))
        #expect(try licenseDownloads(forged.id) == 1)
        try server.clearLog()
        try await license.returnPublication()
        #expect(try licenseDownloads(forged.id) <= 1)
    }

    /// A renewed license whose signature does not verify is refused — the old one is kept —
    /// and the person is told so, not that the network failed.
    @Test func aRenewedLicenseWithABadSignatureIsRefusedAndSaidSo() async throws {
        let (path, forged) = try book(state: ["sign_badly": true])
        let license = try await open(path, try TestLCP())
        try server.clearLog()
        await #expect {
            try await license.renewLoan(with: Delegate("2027-03-01T00:00:00Z"))
        } throws: { error in
            guard let error = error as? LCPError, case .renewedLicenseRefused = error else { return false }
            return error.userMessage.hasPrefix("The loan was renewed, but the license the provider sent back was refused (")
                && !error.userMessage.contains("could not be downloaded")
        }
        #expect(license.license.rights.end == RFC3339Date.parse(Self.end), "the previous license is kept")
        #expect(try licenseDownloads(forged.id) == 1)
    }

    final class Delegate: LCPRenewDelegate, @unchecked Sendable {
        let end: Date?
        var maximum: Date??
        var webPage: String?

        init(_ end: String?) { self.end = end.flatMap(RFC3339Date.parse) }

        func preferredEndDate(maximum: Date?) async -> Date? {
            self.maximum = .some(maximum)
            return end
        }

        func presentWebPage(url: String) async { webPage = url }
    }

    func licenseEntry(_ path: String) throws -> Data? {
        let archive = try ZipArchive(path: path)
        defer { archive.close() }
        return try archive.entry(at: "META-INF/license.lcpl").map { try archive.read($0) }
    }

    func lastRequest(_ action: String, _ id: String) throws -> [String: Any] {
        try server.state(id)["last_" + action] as? [String: Any] ?? [:]
    }

    // MARK: - Renew

    @Test func aRenewalMovesTheEndAndTheNewLicenseIsStoredAndWrittenBack() async throws {
        let (path, forged) = try book()
        let lcp = try TestLCP()
        let license = try await open(path, lcp)
        #expect(license.status?.status == .active)
        #expect(license.canRenewLoan)
        let delegate = Delegate("2027-03-01T00:00:00Z")
        try await license.renewLoan(with: delegate)
        #expect(delegate.maximum == .some(RFC3339Date.parse(Self.limit)))
        #expect(license.rightsEnd.map(RFC3339Date.string) == "2027-03-01T00:00:00Z")
        #expect(license.license.updated != nil)
        #expect(license.error == nil)

        // The request: the end date and this device.
        let request = try lastRequest("renew", forged.id)
        #expect(request["end"] as? String == "2027-03-01T00:00:00Z")
        #expect(request["id"] as? String == (try lcp.licenses.deviceID(provider: forged.spec.provider)))
        #expect(request["name"] as? String == "Lectern (Linux)")

        // The renewed license, signed by the provider, is stored and in the package.
        let served = try #require(try server.state(forged.id)["license"] as? String)
        #expect(try lcp.licenses.licenseData(id: forged.id) == Data(served.utf8))
        #expect(try licenseEntry(path) == Data(served.utf8))
        // The rights counters were not reset by the new license.
        #expect(await license.copy(text: "0123456789").isGranted)
        let reopened = try await open(path, lcp)
        #expect(reopened.rightsEnd.map(RFC3339Date.string) == "2027-03-01T00:00:00Z")
        #expect(reopened.charactersToCopyLeft == 90)
    }

    @Test func withoutAnEndTheProviderChoosesAndNoEndIsSent() async throws {
        let (path, forged) = try book()
        let license = try await open(path, try TestLCP())
        try await license.renewLoan(with: Delegate(nil))
        #expect(license.rightsEnd.map(RFC3339Date.string) == "2027-01-08T00:00:00Z")
        #expect(try lastRequest("renew", forged.id)["end"] is NSNull)
    }

    /// The reference server answers 200 and changes nothing for a date beyond its limit: the
    /// license is downloaded again, its end compared, and the person told.
    @Test func aRenewalBeyondAnUnpublishedLimitIsReportedAsNotExtended() async throws {
        let (path, forged) = try book(state: ["publish_potential_end": false])
        let license = try await open(path, try TestLCP())
        #expect(license.potentialRightsEnd == nil)
        await #expect {
            try await license.renewLoan(with: Delegate("2028-01-01T00:00:00Z"))
        } throws: { error in
            guard case .renewalNotExtended(let end, let requested, nil) = error as? LCPError else { return false }
            return end == RFC3339Date.parse(Self.end) && requested == RFC3339Date.parse("2028-01-01T00:00:00Z")
        }
        #expect(try server.counter("renew", forged.id) == 1)
        #expect(try server.counter("license", forged.id) >= 1)
        #expect(license.rightsEnd.map(RFC3339Date.string) == Self.end)
        do {
            try await license.renewLoan(with: Delegate("2028-01-01T00:00:00Z"))
        } catch {
            #expect(error.userMessage == "The provider accepted the renewal but did not extend the loan to 2028-01-01 00:00 UTC: it still ends on 2027-01-01 00:00 UTC.")
        }
    }

    /// A date before the current end is not a renewal either.
    @Test func aRenewalToAnEarlierDateIsNotExtended() async throws {
        let (path, _) = try book()
        let license = try await open(path, try TestLCP())
        await #expect(throws: LCPError.self) { try await license.renewLoan(with: Delegate("2026-12-25T00:00:00Z")) }
        #expect(license.rightsEnd.map(RFC3339Date.string) == Self.end)
    }

    @Test func aDateBeyondThePublishedLimitIsRefusedWithoutAsking() async throws {
        let (path, forged) = try book()
        let license = try await open(path, try TestLCP())
        await #expect {
            try await license.renewLoan(with: Delegate("2028-01-01T00:00:00Z"))
        } throws: { error in
            (error as? LCPError)?.userMessage
                == "That renewal date is not allowed (2028-01-01 00:00 UTC); the latest possible end is 2027-06-01 00:00 UTC."
        }
        #expect(try server.counter("renew", forged.id) == 0)
    }

    /// A server following the spec's table answers 403 `renew/date`.
    @Test func aSpecServerRefusingTheDateIsMappedByType() async throws {
        let (path, _) = try book(state: ["renew_policy": "spec", "publish_potential_end": false])
        let license = try await open(path, try TestLCP())
        await #expect {
            try await license.renewLoan(with: Delegate("2028-01-01T00:00:00Z"))
        } throws: { error in
            guard case .renewalDateNotAllowed(let requested, _) = error as? LCPError else { return false }
            return requested == RFC3339Date.parse("2028-01-01T00:00:00Z")
        }
    }

    @Test func aContinuationTemplateIsExpanded() async throws {
        let (path, forged) = try book(state: ["renew_template": "?lang=en{&end,id,name}"])
        let license = try await open(path, try TestLCP())
        try await license.renewLoan(with: Delegate("2027-02-01T00:00:00Z"))
        let query = try #require(try lastRequest("renew", forged.id)["query"] as? String)
        #expect(query.hasPrefix("lang=en&end=2027-02-01T00%3A00%3A00Z&id="))
        #expect(query.hasSuffix("&name=Lectern%20%28Linux%29"))
    }

    @Test func anHTMLRenewLinkIsGivenToTheDelegateAndTheStatusCheckedAgain() async throws {
        let (path, forged) = try book(state: ["renew_link": "html"])
        let license = try await open(path, try TestLCP())
        let statusRequests = try server.counter("status", forged.id)
        let delegate = Delegate("2027-02-01T00:00:00Z")
        try await license.renewLoan(with: delegate)
        #expect(delegate.webPage == server.base + "/licenses/\(forged.id)/renew-page")
        #expect(delegate.maximum == nil)
        #expect(try server.counter("renew", forged.id) == 0)
        #expect(try server.counter("status", forged.id) == statusRequests + 1)
    }

    @Test func withBothLinksTheWebPageIsUsedOnlyWhenPreferred() async throws {
        let (path, forged) = try book(state: ["renew_link": "both"])
        let license = try await open(path, try TestLCP())
        let web = Delegate(nil)
        try await license.renewLoan(with: web, prefersWebPage: true)
        #expect(web.webPage != nil)
        #expect(try server.counter("renew", forged.id) == 0)
        let direct = Delegate("2027-02-01T00:00:00Z")
        try await license.renewLoan(with: direct)
        #expect(direct.webPage == nil)
        #expect(try server.counter("renew", forged.id) == 1)
    }

    @Test func aRevokedLoanCannotBeRenewed() async throws {
        let (path, forged) = try book()
        let license = try await open(path, try TestLCP())
        try server.configure(forged.id, ["status": "revoked"])
        // The status seen at opening still offers renewal; the server refuses.
        await #expect {
            try await license.renewLoan(with: Delegate("2027-02-01T00:00:00Z"))
        } throws: { error in
            guard case .renewFailed(let detail) = error as? LCPError else { return false }
            return detail == "the license is revoked"
        }
    }

    /// The reference server creates the status of a new license asynchronously: its status
    /// link answers 404 for a moment.
    @Test func aStatusThatIsNotThereYetIsAskedAgain() async throws {
        let (path, forged) = try book(state: ["status": "active", "status_404_count": 2])
        let license = try await open(path, try TestLCP())
        #expect(license.status == nil)
        try await license.renewLoan(with: Delegate("2027-02-01T00:00:00Z"))
        #expect(license.rightsEnd.map(RFC3339Date.string) == "2027-02-01T00:00:00Z")
        #expect(try server.counter("status", forged.id) >= 3)
    }

    @Test func aSilentServerFailsTheRenewalAfterTheTimeout() async throws {
        let (path, forged) = try book()
        let license = try await open(path, try TestLCP(interactionTimeout: 1))
        try server.configure(forged.id, ["interaction_mode": "hang"])
        await #expect {
            try await license.renewLoan(with: Delegate("2027-02-01T00:00:00Z"))
        } throws: { error in
            guard case .network(let cause) = error as? LCPError else { return false }
            return cause.contains("did not answer in time")
        }
    }

    // MARK: - Return

    @Test func aReturnedBookNoLongerOpens() async throws {
        let (path, forged) = try book()
        let lcp = try TestLCP()
        let license = try await open(path, lcp)
        #expect(license.canReturnPublication)
        try await license.returnPublication()
        guard case .status(.returned(let date))? = license.error else { Issue.record("\(String(describing: license.error))"); return }
        #expect(date != nil)
        #expect(!license.canReturnPublication)
        #expect(license.charactersToCopyLeft == 0)
        let served = try #require(try server.state(forged.id)["license"] as? String)
        #expect(try licenseEntry(path) == Data(served.utf8))
        #expect(try lastRequest("return", forged.id)["name"] as? String == "Lectern (Linux)")

        let publication = try await lcp.open(path, credentials: "open sesame")
        defer { publication.close() }
        #expect(publication.isRestricted)
        #expect(publication.lcpLicense?.error?.userMessage.hasPrefix("This book was returned on ") == true)
    }

    /// Returning a ready loan (never registered) cancels it.
    @Test func returningAnUnusedLoanCancelsIt() async throws {
        let (path, _) = try book(state: ["register_http": 500])
        let license = try await open(path, try TestLCP())
        #expect(license.status?.status == .ready)
        try await license.returnPublication()
        guard case .status(.cancelled)? = license.error else { Issue.record("\(String(describing: license.error))"); return }
    }

    /// Two devices hold the loan; the second return answers 403 `return/already`.
    @Test func aSecondReturnFromAnotherDeviceIsAlreadyReturned() async throws {
        let (path, _) = try book()
        let copy = Fixtures.temporaryDirectory("lcp-loan-copy") + "/book.epub"
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let first = try await open(path, try TestLCP())
        let second = try await open(copy, try TestLCP())
        try await first.returnPublication()
        await #expect {
            try await second.returnPublication()
        } throws: { error in
            guard case .alreadyReturned = error as? LCPError else { return false }
            return (error as? LCPError)?.userMessage == "This book was already returned."
        }
    }

    @Test(arguments: [
        (403, "return/expired", "This loan has already expired."),
        (500, "server", "The library server had a problem. Try again later."),
        (400, "return", "The book could not be returned. Try again later."),
        (403, "", "This book was already returned."),
        (502, "", "The library server had a problem (HTTP 502). Try again later."),
    ])
    func returnProblemsAreMappedByTypeThenStatus(_ status: Int, _ type: String, _ message: String) async throws {
        let (path, forged) = try book()
        let license = try await open(path, try TestLCP())
        var problem: [String: Any] = ["status": status]
        if !type.isEmpty {
            problem["type"] = type
            problem["title"] = "Problem"
        }
        try server.configure(forged.id, ["force_problem": problem])
        await #expect {
            try await license.returnPublication()
        } throws: { error in
            (error as? LCPError)?.userMessage == message
        }
    }

    /// `end=notadate` (which Lectern never sends) answers 400 `renew`, with the server's detail.
    @Test func anInvalidEndIsAProblemOfTypeRenew() async throws {
        let (path, forged) = try book()
        _ = try await open(path, try TestLCP())
        let client = LicenseStatusClient(httpClient: CurlHTTPClient(), timeout: 5)
        let result = await client.put(server.base + "/licenses/\(forged.id)/renew?end=notadate&id=d&name=n", .renew)
        #expect(result.failure?.userMessage == "The loan could not be renewed (invalid end date notadate).")
    }

    @Test func aLicenseWithoutStatusCannotBeRenewedOrReturned() async throws {
        let (path, _) = try book { $0.statusURL = nil }
        let license = try await open(path, try TestLCP())
        await #expect(throws: LCPError.self) { try await license.renewLoan(with: Delegate(nil)) }
        await #expect(throws: LCPError.self) { try await license.returnPublication() }
        #expect(!license.canRenewLoan && !license.canReturnPublication)
    }

    /// A bare license is updated in its own file.
    @Test func aBareLicenseIsRenewedInPlace() async throws {
        let (_, forged) = try book()
        let lcpl = Fixtures.temporaryDirectory("lcp-loan-lcpl") + "/book.lcpl"
        try forged.data.write(to: URL(fileURLWithPath: lcpl))
        let lcp = try TestLCP()
        let license = try await lcp.service.retrieveLicense(path: lcpl, credentials: "open sesame", authentication: nil,
                                                           allowUserInteraction: false).get()
        try await license.renewLoan(with: Delegate("2027-02-01T00:00:00Z"))
        let served = try #require(try server.state(forged.id)["license"] as? String)
        #expect(Fixtures.bytes(lcpl) == Data(served.utf8))
    }
}
