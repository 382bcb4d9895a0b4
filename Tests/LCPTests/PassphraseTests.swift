import Foundation
import LCP
import LCPSQLite
import Shared
import Testing
import TestSupport

/// Where passphrases come from, in order: the credentials given, the stored user keys (this
/// license, same provider and user, all), then the prompt, again after each wrong answer.
@Suite struct PassphraseTests {
    func book(_ spec: LicenseSpec = LicenseSpec()) throws -> (path: String, license: ForgedLicense) {
        let license = try LicenseForge.make(spec)
        let path = Fixtures.temporaryDirectory("lcp-pass") + "/book.epub"
        try PackageForge.epub(at: path, license: license, resources: [
            ForgedResource("OEBPS/chapter1.xhtml", PackageForge.text(2000), mediaType: "application/xhtml+xml"),
        ])
        return (path, license)
    }

    @Test func theUserKeyIsStoredAndReusedWithoutPrompting() async throws {
        let lcp = try TestLCP()
        let (path, license) = try book()
        #expect(try await lcp.retrieveLicense(path, credentials: "open sesame").get().error == nil)
        let prompt = ScriptedAuthentication([])
        #expect(try await lcp.retrieveLicense(path, authentication: prompt, allowUserInteraction: true).get().error == nil)
        #expect(prompt.requestCount == 0)
        #expect(try lcp.passphrases.passphrases(licenseID: license.id) == [BasicProfileLCPClient.userKey(passphrase: "open sesame")])
        // Only the hash is stored: the passphrase appears nowhere in the database files.
        for file in ["library.sqlite", "library.sqlite-wal"] {
            let bytes = Fixtures.bytes(lcp.directory + "/" + file)
            #expect(bytes.range(of: Data("open sesame".utf8)) == nil, "\(file)")
        }
    }

    @Test func keysOfTheSameProviderAndUserOpenOtherLicenses() async throws {
        let lcp = try TestLCP()
        let first = try book()
        _ = try await lcp.retrieveLicense(first.path, credentials: "open sesame").get()
        let second = try book()
        #expect(try await lcp.retrieveLicense(second.path).get().error == nil)
        #expect(try lcp.passphrases.passphrases(provider: "https://provider.example.org", userID: "reader-1").count == 1)
    }

    @Test func everyStoredKeyIsTriedLast() async throws {
        let lcp = try TestLCP()
        _ = try await lcp.retrieveLicense(try book().path, credentials: "open sesame").get()
        var spec = LicenseSpec()
        spec.provider = "https://other.example.org"
        spec.userID = nil
        #expect(try await lcp.retrieveLicense(try book(spec).path).get().error == nil)
    }

    @Test func givenCredentialsComeFirstAndMayBeTheHash() async throws {
        let lcp = try TestLCP()
        let (path, _) = try book()
        let hash = BasicProfileLCPClient.userKey(passphrase: "open sesame")
        #expect(try await lcp.retrieveLicense(path, credentials: hash.uppercased()).get().error == nil)
        // A passphrase that happens to be 64 hexadecimal digits is still a passphrase.
        var spec = LicenseSpec()
        spec.passphrase = String(repeating: "ab", count: 32)
        let hexBook = try book(spec)
        #expect(try await TestLCP().retrieveLicense(hexBook.path, credentials: spec.passphrase).get().error == nil)
    }

    @Test func wrongCredentialsWithoutAPromptSayWrongPassphrase() async throws {
        let (path, _) = try book()
        let license = try await TestLCP().retrieveLicense(path, credentials: "open sesame ").get()
        guard case .wrongPassphrase(let hint, _)? = license.error else {
            Issue.record("expected a wrong passphrase, got \(String(describing: license.error))")
            return
        }
        #expect(hint == "The usual one")
        #expect(license.error?.userMessage == "Wrong passphrase. Hint: The usual one (see https://provider.example.org/hint)")
    }

    @Test func wrongCredentialsAreForgivenWhenAStoredKeyWorks() async throws {
        let lcp = try TestLCP()
        let (path, _) = try book()
        _ = try await lcp.retrieveLicense(path, credentials: "open sesame").get()
        #expect(try await lcp.retrieveLicense(path, credentials: "nope").get().error == nil)
    }

    @Test func thePromptIsAskedAgainAfterEachWrongAnswer() async throws {
        let (path, _) = try book()
        let prompt = ScriptedAuthentication(["wrong", "Open sesame", "open sesame"])
        let license = try await TestLCP().retrieveLicense(path, credentials: "bad", authentication: prompt, allowUserInteraction: true).get()
        #expect(license.error == nil)
        #expect(prompt.requests.map(\.reason) == [.invalidPassphrase, .invalidPassphrase, .invalidPassphrase])
        #expect(prompt.requests.allSatisfy { $0.hint == "The usual one" && $0.interactive })
        let fresh = ScriptedAuthentication(["wrong", "open sesame"])
        _ = try await TestLCP().retrieveLicense(path, authentication: fresh, allowUserInteraction: true).get()
        #expect(fresh.requests.map(\.reason) == [.passphraseNotFound, .invalidPassphrase])
    }

    @Test func cancellingThePromptLeavesTheBookLockedWithoutError() async throws {
        let (path, _) = try book()
        let prompt = ScriptedAuthentication(["wrong", nil])
        let license = try await TestLCP().retrieveLicense(path, authentication: prompt, allowUserInteraction: true).get()
        guard case .missingPassphrase? = license.error else {
            Issue.record("expected missingPassphrase, got \(String(describing: license.error))")
            return
        }
        #expect(prompt.requestCount == 2)
    }

    @Test func aBrokenRepositoryNeverSkipsThePrompt() async throws {
        let (path, _) = try book()
        let prompt = ScriptedAuthentication(["open sesame"])
        let lcp = try TestLCP(passphraseRepository: FailingPassphraseRepository())
        let license = try await lcp.retrieveLicense(path, authentication: prompt, allowUserInteraction: true).get()
        #expect(license.error == nil)
        #expect(prompt.requestCount == 1)
    }

    /// Shared's `onAskCredentials` answers LCP prompts, only when interaction is allowed, with
    /// the hint, the hint page and the error of the previous attempt.
    @Test func openerCredentialsCallbackIsUsedForThePrompt() async throws {
        let (path, _) = try book()
        let requests = RequestLog()
        let onAsk: OnAskCredentials = { request, _ in
            await requests.append(request)
            return await requests.count == 1 ? "wrong" : "open sesame"
        }
        let locked = try await TestLCP().open(path, allowUserInteraction: false, onAskCredentials: onAsk)
        defer { locked.close() }
        #expect(locked.isRestricted)
        #expect(await requests.count == 0)

        let opened = try await TestLCP().open(path, allowUserInteraction: true, onAskCredentials: onAsk)
        defer { opened.close() }
        #expect(!opened.isRestricted)
        let log = await requests.all
        #expect(log.count == 2)
        #expect(log.allSatisfy { $0.kind == .passphrase && $0.hint == "The usual one" && $0.hintLink == "https://provider.example.org/hint" })
        #expect(log.first?.error == nil)
        #expect(log.last?.error == "Wrong passphrase.")
    }
}

actor RequestLog {
    private(set) var all: [CredentialsRequest] = []
    var count: Int { all.count }
    func append(_ request: CredentialsRequest) { all.append(request) }
}

/// A passphrase repository whose every call fails.
struct FailingPassphraseRepository: LCPPassphraseRepository {
    func passphrases(licenseID: String) throws(LCPError) -> [String] { throw .repository("disk on fire") }
    func passphrases(provider: String, userID: String?) throws(LCPError) -> [String] { throw .repository("disk on fire") }
    func allPassphrases(limit: Int) throws(LCPError) -> [String] { throw .repository("disk on fire") }
    func addPassphrase(_ hashedPassphrase: String, licenseID: String, provider: String, userID: String?) throws(LCPError) {
        throw .repository("disk on fire")
    }
}
