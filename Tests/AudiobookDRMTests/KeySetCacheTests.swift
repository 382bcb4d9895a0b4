import Foundation
@testable import AudiobookDRM
import Shared
import Testing
import TestSupport

/// Key sets: cached on disk for their `max-age`, downloaded again when stale or when the cached
/// keys do not verify (rotation), used stale when the issuer cannot be reached.
@Suite struct KeySetCacheTests {
    let clock = Clock("2024-05-01T12:00:00Z")
    /// Not created beforehand: the cache makes it (mode 0700).
    let cacheDirectory = Fixtures.temporaryDirectory("jwks-cache") + "/lectern/jwks"

    func configuration(_ server: TestHTTPServer, path: String = "/jwks.json", timeout: Double = 10) -> AudiobookDRMConfiguration {
        configuration(url: server.url(path), timeout: timeout)
    }

    func configuration(url: String, timeout: Double = 10) -> AudiobookDRMConfiguration {
        DRMTestKit.configuration(issuer: DRMTestKit.testIssuer, keySetURL: url, clock: clock,
                                 cacheDirectory: cacheDirectory, keySetTimeout: timeout)
    }

    /// A folder audiobook signed by `signer`.
    func book(_ signer: AudiobookSigner) throws -> String {
        try DRMTestKit.audiobookFolder(manifest: try signer.sign(DRMTestKit.manifestJSON(), issuer: DRMTestKit.testIssuer))
    }

    func check(_ path: String, _ configuration: AudiobookDRMConfiguration) async throws -> AudiobookDRMReport.Outcome? {
        try await DRMTestKit.open(path, configuration: configuration).feedbooksDRMReport?.signature
    }

    func keySet(_ signers: AudiobookSigner..., maxAge: Int? = 86_400, path: String = "/jwks.json", etag: String? = nil) -> TestHTTPRoute {
        var route = DRMTestKit.keySetRoute(path, AudiobookSigner.keySet(signers), maxAge: maxAge)
        if let etag { route.headers["ETag"] = etag }
        return route
    }

    @Test func aFreshKeySetIsReusedAndStoredPrivately() async throws {
        let server = try TestHTTPServer(routes: [keySet(DRMTestKit.signerA)])
        defer { server.stop() }
        let path = try book(DRMTestKit.signerA)
        #expect(try await check(path, configuration(server)) == .passed)
        clock.advance(3600)
        #expect(try await check(path, configuration(server)) == .passed)
        #expect(DRMTestKit.requestCount(server, "/jwks.json") == 1)

        let files = try FileManager.default.contentsOfDirectory(atPath: cacheDirectory)
        #expect(files.count == 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: cacheDirectory + "/" + files[0])
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: cacheDirectory)
        #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }

    @Test func theKeySetIsDownloadedAgainAfterItsMaxAge() async throws {
        let server = try TestHTTPServer(routes: [keySet(DRMTestKit.signerA, maxAge: 7200, etag: "\"v1\"")])
        defer { server.stop() }
        let path = try book(DRMTestKit.signerA)
        #expect(try await check(path, configuration(server)) == .passed)
        clock.advance(7199)
        #expect(try await check(path, configuration(server)) == .passed)
        #expect(DRMTestKit.requestCount(server, "/jwks.json") == 1)
        clock.advance(2)
        #expect(try await check(path, configuration(server)) == .passed)
        let requests = server.requests.filter { $0.path == "/jwks.json" }
        #expect(requests.count == 2)
        // The second request is conditional.
        #expect(requests.last?.headers["if-none-match"] == "\"v1\"")
    }

    @Test func maxAgeIsClampedToAnHourAndAWeek() {
        #expect(IssuerKeyStore.lifetime(cacheControl: nil) == 86_400)
        #expect(IssuerKeyStore.lifetime(cacheControl: "public, max-age=7200") == 7200)
        #expect(IssuerKeyStore.lifetime(cacheControl: "max-age=\"7200\"") == 7200)
        #expect(IssuerKeyStore.lifetime(cacheControl: "max-age=10") == 3600)
        #expect(IssuerKeyStore.lifetime(cacheControl: "no-store") == 3600)
        #expect(IssuerKeyStore.lifetime(cacheControl: "max-age=99999999999") == 7 * 86_400)
        #expect(IssuerKeyStore.lifetime(cacheControl: "max-age=-5, private") == 86_400)
        #expect(IssuerKeyStore.lifetime(cacheControl: "max-age=banana") == 86_400)
    }

    @Test func rotatedKeysAreFetchedWhenTheCachedOnesDoNotVerify() async throws {
        let server = try TestHTTPServer(routes: [keySet(DRMTestKit.signerA)])
        defer { server.stop() }
        #expect(try await check(try book(DRMTestKit.signerA), configuration(server)) == .passed)

        // The issuer replaced key A by key B; the cached set (still fresh) only has A.
        try server.setRoutes([keySet(DRMTestKit.signerB)])
        clock.advance(600)
        let rotated = try book(DRMTestKit.signerB)
        #expect(try await check(rotated, configuration(server)) == .passed)
        #expect(DRMTestKit.requestCount(server, "/jwks.json") == 2)
        // The new set replaced the old one in the cache.
        clock.advance(60)
        #expect(try await check(rotated, configuration(server)) == .passed)
        #expect(DRMTestKit.requestCount(server, "/jwks.json") == 2)
    }

    @Test func aRecentlyFetchedSetIsNotFetchedAgainForABadSignature() async throws {
        let server = try TestHTTPServer(routes: [keySet(DRMTestKit.signerA)])
        defer { server.stop() }
        #expect(try await check(try book(DRMTestKit.signerA), configuration(server)) == .passed)
        try server.setRoutes([keySet(DRMTestKit.signerA, DRMTestKit.signerB)])
        clock.advance(60)
        let other = try book(DRMTestKit.signerB)
        #expect(try await check(other, configuration(server)) == .failed(.signatureInvalid(issuer: DRMTestKit.testIssuer)))
        #expect(DRMTestKit.requestCount(server, "/jwks.json") == 1)
        // Five minutes later the set is asked for again, and has the key.
        clock.advance(300)
        #expect(try await check(other, configuration(server)) == .passed)
        #expect(DRMTestKit.requestCount(server, "/jwks.json") == 2)
    }

    @Test func aStaleSetIsUsedWhenTheIssuerCannotBeReached() async throws {
        let server = try TestHTTPServer(routes: [keySet(DRMTestKit.signerA, maxAge: 3600)])
        let url = server.url("/jwks.json")
        let path = try book(DRMTestKit.signerA)
        #expect(try await check(path, configuration(server)) == .passed)
        server.stop()

        // Offline while fresh: no request needed.
        clock.advance(1800)
        #expect(try await check(path, configuration(url: url)) == .passed)
        // Offline and stale: the cached keys still serve.
        clock.advance(3 * 86_400)
        #expect(try await check(path, configuration(url: url)) == .passed)
        // But a manifest they do not verify is still refused.
        #expect(try await check(try book(DRMTestKit.signerB), configuration(url: url))
            == .failed(.signatureInvalid(issuer: DRMTestKit.testIssuer)))
        // Without any cached set, offline is a failure.
        let other = TestHTTPServer.refusingURL("/jwks.json")
        guard case .failed(.keysUnavailable(_, other, _))? = try await check(path, configuration(url: other)) else {
            Issue.record("an unreachable issuer without cache did not fail")
            return
        }
    }

    @Test func serverErrorsFallBackToTheCachedSet() async throws {
        let server = try TestHTTPServer(routes: [keySet(DRMTestKit.signerA, maxAge: 3600)])
        defer { server.stop() }
        let path = try book(DRMTestKit.signerA)
        #expect(try await check(path, configuration(server)) == .passed)
        clock.advance(7200)
        try server.setRoutes([TestHTTPRoute("/jwks.json", status: 500, text: "oops")])
        #expect(try await check(path, configuration(server)) == .passed)
        // HTML where JSON was expected is a broken publication of the keys: the cached ones serve.
        try server.setRoutes([TestHTTPRoute("/jwks.json", headers: ["Content-Type": "text/html"], text: "<html>Login</html>")])
        #expect(try await check(path, configuration(server)) == .passed)
        #expect(DRMTestKit.requestCount(server, "/jwks.json") == 3)
    }

    @Test func withoutCacheServerErrorsAndHTMLFail() async throws {
        let server = try TestHTTPServer(routes: [
            TestHTTPRoute("/500.json", status: 500, text: "oops"),
            TestHTTPRoute("/html.json", headers: ["Content-Type": "text/html"], text: "<!DOCTYPE html><html>Login</html>"),
            TestHTTPRoute("/big.json", body: Data(repeating: 0x20, count: 300 << 10)),
            TestHTTPRoute("/hang.json", behaviour: .hang),
        ])
        defer { server.stop() }
        let path = try book(DRMTestKit.signerA)
        #expect(try await check(path, configuration(server, path: "/500.json"))
            == .failed(.keysUnavailable(issuer: DRMTestKit.testIssuer, url: server.url("/500.json"), reason: "HTTP 500")))
        guard case .failed(.keysUnparseable(_, _, let reason))? = try await check(path, configuration(server, path: "/html.json")) else {
            Issue.record("HTML was accepted as a key set")
            return
        }
        #expect(reason.hasPrefix("not JSON"))
        guard case .failed(.keysUnavailable(_, _, let large))? = try await check(path, configuration(server, path: "/big.json")) else {
            Issue.record("an oversized key set was accepted")
            return
        }
        #expect(large.contains("larger than"))
        guard case .failed(.keysUnavailable(_, _, let slow))? = try await check(path, configuration(server, path: "/hang.json", timeout: 1)) else {
            Issue.record("a hanging key-set server did not fail")
            return
        }
        #expect(slow.contains("did not answer in time"))
        // Nothing unusable was cached.
        #expect((try? FileManager.default.contentsOfDirectory(atPath: cacheDirectory))?.isEmpty ?? true)
    }

    @Test func aDamagedCacheFileIsIgnored() async throws {
        let server = try TestHTTPServer(routes: [keySet(DRMTestKit.signerA)])
        defer { server.stop() }
        let path = try book(DRMTestKit.signerA)
        #expect(try await check(path, configuration(server)) == .passed)
        let file = try #require(KeySetCache(directory: cacheDirectory).path(for: server.url("/jwks.json")))
        for damage in [Data("{\"url\": 3".utf8), Data(), Data("{\"url\": \"elsewhere\", \"body\": \"{}\", \"retrieved\": 0, \"expires\": 9e12}".utf8)] {
            try damage.write(to: URL(fileURLWithPath: file))
            #expect(try await check(path, configuration(server)) == .passed)
        }
        #expect(DRMTestKit.requestCount(server, "/jwks.json") == 4)
        // A cached set whose keys were replaced by garbage is not trusted either.
        var entry = try #require(KeySetCache(directory: cacheDirectory).load(server.url("/jwks.json")))
        entry.body = Array("oops".utf8)
        KeySetCache(directory: cacheDirectory).store(entry)
        #expect(try await check(path, configuration(server)) == .passed)
        #expect(DRMTestKit.requestCount(server, "/jwks.json") == 5)
    }

    @Test func withoutACacheFolderEveryCheckDownloads() async throws {
        let server = try TestHTTPServer(routes: [keySet(DRMTestKit.signerA)])
        defer { server.stop() }
        let path = try book(DRMTestKit.signerA)
        let configuration = DRMTestKit.configuration(issuer: DRMTestKit.testIssuer, keySetURL: server.url("/jwks.json"),
                                                     clock: clock, cacheDirectory: nil)
        #expect(try await check(path, configuration) == .passed)
        #expect(try await check(path, configuration) == .passed)
        #expect(DRMTestKit.requestCount(server, "/jwks.json") == 2)
    }

    @Test func keySetsAreOnlyFetchedOverHTTPSOrFromThisMachine() async throws {
        #expect(IssuerKeyStore.isAcceptable("https://listen.cantookaudio.com/.well-known/jwks.json"))
        #expect(IssuerKeyStore.isAcceptable("http://127.0.0.1:8080/jwks.json"))
        #expect(IssuerKeyStore.isAcceptable("http://localhost/jwks.json"))
        #expect(IssuerKeyStore.isAcceptable("http://[::1]:80/jwks.json"))
        #expect(!IssuerKeyStore.isAcceptable("http://listen.cantookaudio.com/.well-known/jwks.json"))
        #expect(!IssuerKeyStore.isAcceptable("http://127.evil.test/jwks.json"))
        #expect(!IssuerKeyStore.isAcceptable("http://127.0.0.1.evil.test/jwks.json"))
        #expect(!IssuerKeyStore.isAcceptable("file:///tmp/jwks.json"))
        let path = try book(DRMTestKit.signerA)
        guard case .failed(.keysUnavailable(_, _, let reason))? = try await check(path, configuration(url: "http://issuer.test/jwks.json")) else {
            Issue.record("a plain HTTP key set was fetched")
            return
        }
        #expect(reason.contains("HTTPS"))
    }
}
