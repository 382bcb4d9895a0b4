import Foundation
@testable import LCP
import LCPSQLite
import LibCrypto
import Shared
import Testing
import TestSupport

/// The certificate revocation list service: downloads from the (loopback) distribution point,
/// checks before caching, caches with its dates in SQLite, refreshes in the background and
/// never blocks an opening.
@Suite struct CRLServiceTests {
    let server: StatusServer
    let lcp: TestLCP
    let repository: LCPSQLiteCRLRepository

    init() throws {
        server = try StatusServer()
        lcp = try TestLCP()
        repository = LCPSQLiteCRLRepository(store: lcp.store)
    }

    private static let openssl = NSLock()

    /// A CRL of the test CA (listing the revoked provider), DER, issued at `lastUpdate`.
    static func crl(lastUpdate: String? = nil, nextUpdate: String? = nil) throws -> Data {
        try openssl.withLock {
            let ca = TestPKI.shared.directory + "/ca"
            let out = Fixtures.temporaryDirectory("crl") + "/crl.pem"
            var arguments = ["ca", "-config", ca + "/ca.cnf", "-cert", ca + "/ca.pem", "-keyfile", ca + "/ca.key", "-gencrl", "-out", out]
            if let lastUpdate { arguments += ["-crl_lastupdate", lastUpdate] }
            if let nextUpdate { arguments += ["-crl_nextupdate", nextUpdate] }
            try Shell.openssl(arguments)
            return try Shell.openssl(["crl", "-in", out, "-outform", "DER"])
        }
    }

    func service(url: String? = nil, retryInterval: Double = 0, now: @escaping @Sendable () -> Date = { Date() }) -> LCPCRLService {
        LCPCRLService(url: url ?? server.fileURL("ca.crl"), issuers: TestLCP.anchors, repository: repository, timeout: 3,
                      retryInterval: retryInterval, now: now)
    }

    func serveCRL(_ data: Data, _ extra: [String: Any] = [:]) throws {
        var values: [String: Any] = ["body_b64": data.base64EncodedString(), "content_type": "application/pkix-crl"]
        values.merge(extra) { $1 }
        try server.serveFile("ca.crl", values)
    }

    func bookSigned(by signer: TestPKI.Signer) throws -> String {
        var spec = LicenseSpec()
        spec.signer = signer
        let path = Fixtures.temporaryDirectory("lcp-crl") + "/book.epub"
        try PackageForge.epub(at: path, license: try LicenseForge.make(spec), resources: [
            ForgedResource("OEBPS/chapter1.xhtml", PackageForge.text(2000), mediaType: "application/xhtml+xml"),
        ])
        return path
    }

    var anyLicense: LicenseDocument { get throws { try LicenseDocument(data: try LicenseForge.make(LicenseSpec()).data) } }

    @Test func aValidCRLIsCachedWithItsDatesThenUsed() async throws {
        try serveCRL(try Self.crl())
        let crls = service()
        // Nothing cached: nothing to check against yet, and a download starts.
        #expect(await crls.crl(for: try anyLicense) == nil)
        #expect(await crls.revocationStatus(for: try anyLicense) == .unavailable)
        await crls.waitForRefresh(atMost: 20)
        let cached = try #require(try repository.crl(url: server.fileURL("ca.crl")))
        #expect(cached.thisUpdate != nil)
        #expect(cached.nextUpdate.map { $0 > Date() } == true)
        let pem = try #require(await crls.crl(for: try anyLicense))
        #expect(try X509CRL(pem: pem).der == Array(cached.der))
        guard case .checked(_, false) = await crls.revocationStatus(for: try anyLicense) else { Issue.record("not checked"); return }
        // Fresh: no second download.
        #expect(try server.log().count == 1)
    }

    @Test func aRevokedProviderCertificateIsRefusedAndOthersNoteTheCheck() async throws {
        try serveCRL(try Self.crl())
        let crls = service()
        #expect(try await crls.refresh().get().url == server.fileURL("ca.crl"))
        let checked = try TestLCP(crlProvider: crls)
        let revoked = try await checked.retrieveLicense(try bookSigned(by: TestPKI.shared.revoked), credentials: "open sesame")
        guard case .certificateRevoked? = revoked.failure else { Issue.record("\(revoked)"); return }
        let fine = try await checked.retrieveLicense(try bookSigned(by: TestPKI.shared.rsa), credentials: "open sesame").get()
        guard case .checked(_?, false)? = fine.revocationStatus else { Issue.record("\(String(describing: fine.revocationStatus))"); return }
        #expect(fine.revocationStatus?.note.hasPrefix("checked against the revocation list of ") == true)
    }

    @Test(arguments: ["html", "garbage", "other-ca", "error", "empty"])
    func whatIsNotAValidCRLIsNeverCached(_ variant: String) async throws {
        switch variant {
        case "html": try server.serveFile("ca.crl", ["mode": "html"])
        case "garbage": try serveCRL(Data(LicenseForge.randomBytes(600)))
        case "other-ca": try serveCRL(Data(try X509CRL(pem: TestPKI.shared.otherCRLPEM).der))
        case "error": try server.serveFile("ca.crl", ["body_b64": "", "content_type": "text/plain"])
        default: try serveCRL(Data())
        }
        let crls = service(url: variant == "error" ? server.fileURL("missing.crl") : nil)
        let result = await crls.refresh()
        #expect(result.failure != nil)
        #expect(try repository.crl(url: crls.url) == nil)
        #expect(try repository.lastFailedAttempt(url: crls.url) != nil)
        if variant == "html" { #expect(result.failure?.userMessage.contains("captive portal") == true) }
        if variant == "other-ca" { #expect(result.failure?.userMessage.contains("not signed by a known certificate authority") == true) }
        // A license still opens, without a revocation check, and says so.
        let license = try await TestLCP(crlProvider: crls).retrieveLicense(try bookSigned(by: TestPKI.shared.revoked),
                                                                           credentials: "open sesame").get()
        #expect(license.revocationStatus == .unavailable)
        #expect(license.revocationStatus?.note == "not checked: no certificate revocation list could be downloaded yet")
    }

    @Test func aPEMCRLIsAcceptedAndStoredAsDER() async throws {
        let der = try Self.crl()
        let pem = try X509CRL(der: der).pem
        try serveCRL(Data(pem.utf8))
        let cached = try await service().refresh().get()
        #expect(cached.der == der)
    }

    @Test func aCRLIssuedInTheFutureIsRefused() async throws {
        try serveCRL(try Self.crl(lastUpdate: "20900101000000Z", nextUpdate: "20900201000000Z"))
        let result = await service().refresh()
        #expect(result.failure?.userMessage.contains("issued in the future") == true)
        #expect(try repository.crl(url: server.fileURL("ca.crl")) == nil)
    }

    @Test func anOlderCRLDoesNotReplaceANewerOne() async throws {
        let crls = service()
        try serveCRL(try Self.crl())
        _ = try await crls.refresh().get()
        try serveCRL(try Self.crl(lastUpdate: "20250101000000Z", nextUpdate: "20250201000000Z"))
        let result = await crls.refresh()
        #expect(result.failure?.userMessage.contains("older than the cached one") == true)
        #expect(try repository.crl(url: crls.url)?.thisUpdate.map { $0 > RFC3339Date.parse("2026-01-01T00:00:00Z")! } == true)
    }

    /// Offline with a stale CRL: the stale one is used, the opening does not wait, and the
    /// failed refresh is remembered.
    @Test func offlineAStaleCRLIsUsed() async throws {
        let old = try Self.crl(lastUpdate: "20260101000000Z", nextUpdate: "20260201000000Z")
        let thisUpdate = try #require(try X509CRL(der: old).thisUpdate)
        try repository.storeCRL(LCPCachedCRL(url: "http://127.0.0.1:9/ca.crl", der: old, thisUpdate: Date(timeIntervalSince1970: Double(thisUpdate)),
                                             nextUpdate: RFC3339Date.parse("2026-02-01T00:00:00Z"),
                                             retrievedAt: RFC3339Date.parse("2026-01-02T00:00:00Z")!))
        let crls = service(url: "http://127.0.0.1:9/ca.crl", retryInterval: 3600)
        let checked = try TestLCP(crlProvider: crls)
        let revoked = try await checked.retrieveLicense(try bookSigned(by: TestPKI.shared.revoked), credentials: "open sesame")
        guard case .certificateRevoked? = revoked.failure else { Issue.record("\(revoked)"); return }
        let fine = try await checked.retrieveLicense(try bookSigned(by: TestPKI.shared.rsa), credentials: "open sesame").get()
        #expect(fine.revocationStatus == .checked(thisUpdate: Date(timeIntervalSince1970: Double(thisUpdate)), isStale: true))
        #expect(fine.revocationStatus?.note.hasSuffix("(due for a refresh)") == true)
        await crls.waitForRefresh(atMost: 20)
        #expect(try repository.lastFailedAttempt(url: crls.url) != nil)
        #expect(try repository.crl(url: crls.url)?.der == old)
    }

    /// A stale CRL is answered at once while a newer one downloads in the background.
    @Test func aStaleCRLIsRefreshedInTheBackground() async throws {
        let old = try Self.crl(lastUpdate: "20260101000000Z", nextUpdate: "20260201000000Z")
        try repository.storeCRL(LCPCachedCRL(url: server.fileURL("ca.crl"), der: old, thisUpdate: RFC3339Date.parse("2026-01-01T00:00:00Z"),
                                             nextUpdate: RFC3339Date.parse("2026-02-01T00:00:00Z"),
                                             retrievedAt: RFC3339Date.parse("2026-01-01T00:00:00Z")!))
        let fresh = try Self.crl()
        // The distribution point is slow: the answer comes from the cache meanwhile.
        try serveCRL(fresh, ["mode": "slow", "chunk": 64, "delay": 0.05])
        let crls = service()
        let pem = try #require(await crls.crl(for: try anyLicense))
        #expect(try X509CRL(pem: pem).der == Array(old))
        await crls.waitForRefresh(atMost: 30)
        #expect(try repository.crl(url: crls.url)?.der == fresh)
        #expect(try X509CRL(pem: try #require(await crls.crl(for: try anyLicense))).der == Array(fresh))
    }

    /// A distribution point that never answers: the cached CRL is answered meanwhile.
    @Test func aSilentDistributionPointNeverHoldsTheAnswer() async throws {
        let old = try Self.crl(lastUpdate: "20260101000000Z", nextUpdate: "20260201000000Z")
        try repository.storeCRL(LCPCachedCRL(url: server.fileURL("ca.crl"), der: old, thisUpdate: nil, nextUpdate: nil,
                                             retrievedAt: RFC3339Date.parse("2026-01-01T00:00:00Z")!))
        try server.serveFile("ca.crl", ["mode": "hang"])
        let crls = service()
        #expect(await crls.crl(for: try anyLicense) != nil)
        #expect(await crls.crl(for: try anyLicense) != nil)
        // One download at a time: once the hanging one has timed out (3 s), a second one
        // started meanwhile would have reached the server too.
        await crls.waitForRefresh(atMost: 30)
        #expect(try server.log().count == 1)
    }

    /// A command that exits while the download hangs leaves a record: the next process does
    /// not try (and wait) again before the interval.
    @Test func aDownloadCutShortCountsAsAnAttempt() async throws {
        try server.serveFile("ca.crl", ["mode": "hang"])
        let first = service(retryInterval: 3600)
        _ = await first.crl(for: try anyLicense)
        try await StateWait.until("the download's request") { try !server.log().isEmpty }
        #expect(try repository.lastFailedAttempt(url: first.url) != nil)
        let second = service(retryInterval: 3600)
        _ = await second.crl(for: try anyLicense)
        // A download it started would hang until its 3-second timeout, its request logged by then.
        await second.waitForRefresh(atMost: 30)
        #expect(try server.log().count == 1)
    }

    @Test func aFailedDownloadIsNotRetriedBeforeTheInterval() async throws {
        try server.serveFile("ca.crl", ["mode": "html"])
        let crls = service(retryInterval: 3600)
        _ = await crls.crl(for: try anyLicense)
        await crls.waitForRefresh(atMost: 20)
        _ = await crls.crl(for: try anyLicense)
        await crls.waitForRefresh(atMost: 20)
        #expect(try server.log().count == 1)
        // Another process (a new service on the same database) does not retry either.
        _ = await service(retryInterval: 3600).crl(for: try anyLicense)
        #expect(try server.log().count == 1)
    }
}
