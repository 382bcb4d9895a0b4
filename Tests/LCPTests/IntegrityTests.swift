import Foundation
import LCP
import LibCrypto
import Shared
import Testing
import TestSupport

/// Licenses signed by a test PKI made for this run: signatures (RSA, ECDSA), tampering,
/// certificate chain and dates, revocation, passphrases.
@Suite struct IntegrityTests {
    let pki = TestPKI.shared

    func client(_ policy: LCPTrustSettings.Policy = .basicProfileTestMode) throws -> BasicProfileLCPClient {
        BasicProfileLCPClient(trust: try LCPTrustSettings(policy: policy, additionalAnchorsPEM: [pki.caPEM]))
    }

    func open(_ data: Data, passphrase: String = "open sesame", crl: String? = nil,
              policy: LCPTrustSettings.Policy = .strict) throws -> any LCPClientContext {
        try client(policy).createContext(jsonLicense: String(decoding: data, as: UTF8.self),
                                         hashedPassphrase: BasicProfileLCPClient.userKey(passphrase: passphrase), pemCrl: crl)
    }

    func expectError(_ data: Data, passphrase: String = "open sesame", crl: String? = nil,
                     _ matches: (LCPError) -> Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) {
            try open(data, passphrase: passphrase, crl: crl)
        } throws: { error in
            (error as? LCPError).map(matches) ?? false
        }
    }

    @Test(arguments: [false, true])
    func signedLicenseOpensWithAChainToTheRoot(ecdsa: Bool) throws {
        var spec = LicenseSpec()
        spec.signer = ecdsa ? pki.ecdsa : pki.rsa
        let license = try LicenseForge.make(spec)
        let context = try open(license.data)
        #expect(context.certificateTrust == .chain)
        #expect(context.userFields == ["email": "reader@example.org", "name": "Reader Name"])
        let blob = try LicenseForge.encrypt(Array("hello".utf8), key: license.contentKey)
        #expect(try client().decrypt(data: Data(blob), using: context) == Data("hello".utf8))
    }

    @Test func flippingOneCharacterOfTheHintBreaksTheSignature() throws {
        let license = try LicenseForge.make(LicenseSpec())
        let tampered = license.tampered { $0.replacingOccurrences(of: "The usual one", with: "The usual onf") }
        #expect(tampered != license.data)
        expectError(tampered) { if case .signatureInvalid = $0 { true } else { false } }
    }

    @Test func flippingTheRightsBreaksTheSignature() throws {
        let license = try LicenseForge.make(LicenseSpec())
        expectError(license.tampered { $0.replacingOccurrences(of: "\"copy\":100", with: "\"copy\":900") }) {
            if case .signatureInvalid = $0 { true } else { false }
        }
    }

    /// A delivered license may escape `/` as `\/` (it decodes to the same document); the
    /// canonical form must not: the signer's has a bare `/`.
    @Test func slashEscapesInTheDeliveredTextVerifyButNotInTheCanonicalForm() throws {
        let license = try LicenseForge.make(LicenseSpec())
        let escaped = license.tampered { $0.replacingOccurrences(of: "/", with: "\\/") }
        #expect(escaped != license.data)
        #expect(try open(escaped).certificateTrust == .chain)

        let document = try LicenseDocument(data: license.data)
        let canonical = String(decoding: document.canonicalBytes, as: UTF8.self)
        #expect(canonical.contains("https://provider.example.org/hint"))
        let reescaped = Array(canonical.replacingOccurrences(of: "/", with: "\\/").utf8)
        let certificate = try X509Certificate(der: document.signature.certificate)
        #expect(certificate.verifySignature(document.signature.value, of: document.canonicalBytes, algorithm: .rsaPKCS1v15SHA256))
        #expect(!certificate.verifySignature(document.signature.value, of: reescaped, algorithm: .rsaPKCS1v15SHA256))
    }

    @Test func unknownMembersAreSignedAndKept() throws {
        var spec = LicenseSpec()
        spec.extra = JSONObject(["https://example.org/ext": .object(JSONObject(["b": .int(2), "a": .array([.number("1.50")])]))])
        spec.rights = JSONObject()
        let license = try LicenseForge.make(spec)
        #expect(license.text.contains("\"rights\":{}"))
        _ = try open(license.data)
        expectError(license.tampered { $0.replacingOccurrences(of: "1.50", with: "1.5") }) {
            if case .signatureInvalid = $0 { true } else { false }
        }
    }

    @Test func anECDSASignatureOfOtherBytesIsRefused() throws {
        var spec = LicenseSpec()
        spec.signer = pki.ecdsa
        let license = try LicenseForge.make(spec)
        expectError(license.tampered { $0.replacingOccurrences(of: "reader-1", with: "reader-2") }) {
            if case .signatureInvalid = $0 { true } else { false }
        }
    }

    @Test func certificateFromAnotherRootIsUntrusted() throws {
        var spec = LicenseSpec()
        spec.signer = pki.untrusted
        expectError(try LicenseForge.make(spec).data) { if case .certificateUntrusted = $0 { true } else { false } }
    }

    /// The provider certificate expired in 2021, but the license was issued in 2020: fine.
    @Test func certificateExpiredTodayButValidAtTheLicenseDateIsAccepted() throws {
        var spec = LicenseSpec()
        spec.signer = pki.expired
        spec.issued = "2020-06-01T12:00:00Z"
        #expect(try open(try LicenseForge.make(spec).data).certificateTrust == .chain)
    }

    @Test func updatedDateIsTheOneCheckedAgainstTheCertificate() throws {
        var spec = LicenseSpec()
        spec.signer = pki.expired
        spec.issued = "2020-06-01T12:00:00Z"
        spec.updated = "2022-06-01T12:00:00Z"
        expectError(try LicenseForge.make(spec).data) {
            if case .certificateExpiredAtLicenseDate(let date) = $0 { RFC3339Date.string(date) == "2022-06-01T12:00:00Z" } else { false }
        }
    }

    @Test func licenseIssuedBeforeTheCertificateIsRefused() throws {
        var spec = LicenseSpec()
        spec.signer = pki.notYetValid
        expectError(try LicenseForge.make(spec).data) {
            if case .certificateExpiredAtLicenseDate = $0 { true } else { false }
        }
    }

    @Test func certificateOnTheCRLIsRevoked() throws {
        var spec = LicenseSpec()
        spec.signer = pki.revoked
        let license = try LicenseForge.make(spec)
        // Without a CRL nothing is known; with the CA's CRL it is revoked.
        #expect(try open(license.data).certificateTrust == .chain)
        expectError(license.data, crl: pki.crlPEM) { if case .certificateRevoked = $0 { true } else { false } }
        // Another CA's CRL, and garbage, say nothing about it.
        #expect(try open(license.data, crl: pki.otherCRLPEM).certificateTrust == .chain)
        #expect(try open(license.data, crl: "<html>captive portal</html>").certificateTrust == .chain)
        // A certificate that is not listed passes the same CRL.
        #expect(try open(try LicenseForge.make(LicenseSpec()).data, crl: pki.crlPEM).certificateTrust == .chain)
    }

    @Test func wrongPassphraseIsReportedWithTheHint() throws {
        let license = try LicenseForge.make(LicenseSpec())
        expectError(license.data, passphrase: "open sesame!") {
            if case .wrongPassphrase(let hint, let link) = $0 {
                hint == "The usual one" && link == "https://provider.example.org/hint"
            } else { false }
        }
    }

    /// The user key is the SHA-256 of the passphrase's UTF-8 bytes as typed: no
    /// normalisation, so the decomposed spelling of the same word is another passphrase.
    @Test func nonASCIIPassphraseOpensOnlyInItsOwnSpelling() throws {
        var spec = LicenseSpec()
        spec.passphrase = "p\u{E4}ssw\u{F6}rd \u{2603} \u{65E5}\u{672C}"
        spec.hint = "Mot de passe \u{E9}t\u{E9}"
        let license = try LicenseForge.make(spec)
        #expect(try open(license.data, passphrase: spec.passphrase).certificateTrust == .chain)
        expectError(license.data, passphrase: "pa\u{308}ssw\u{F6}rd \u{2603} \u{65E5}\u{672C}") {
            if case .wrongPassphrase(let hint, _) = $0 { hint == "Mot de passe \u{E9}t\u{E9}" } else { false }
        }
    }

    @Test func contentKeyOfTheWrongSizeIsDamage() throws {
        let license = try LicenseForge.make(LicenseSpec(), contentKey: LicenseForge.randomBytes(16))
        expectError(license.data) { if case .contentKeyDecryptError = $0 { true } else { false } }
    }

    @Test func productionProfileIsRefusedByTheClient() throws {
        var spec = LicenseSpec()
        spec.profile = "http://readium.org/lcp/profile-2.0"
        expectError(try LicenseForge.make(spec).data) {
            if case .profileNotSupported(let profile) = $0 { profile.hasSuffix("profile-2.0") } else { false }
        }
        #expect(LCPError.profileNotSupported("http://readium.org/lcp/profile-2.0").userMessage
            == "This book uses a commercial Readium LCP profile (profile-2.0) that requires EDRLab's certified library. Lectern can open only test (basic-profile) LCP publications.")
    }

    @Test func findOneValidPassphraseAcceptsOnlyUserKeys() throws {
        let license = try LicenseForge.make(LicenseSpec())
        let good = BasicProfileLCPClient.userKey(passphrase: "open sesame")
        let found = try client().findOneValidPassphrase(
            jsonLicense: license.text, hashedPassphrases: ["open sesame", "zz" + good.dropFirst(2), good.uppercased(), good])
        #expect(found == good)
        #expect(try client().findOneValidPassphrase(jsonLicense: "not json", hashedPassphrases: [good]) == nil)
    }
}
