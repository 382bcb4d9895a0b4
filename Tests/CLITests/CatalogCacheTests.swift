import Foundation
import Testing
import TestSupport

/// Feeds read without credentials are kept in the cache directory with their ETag: asked
/// again with If-None-Match (a 304 reuses the copy), and shown with their date when the
/// server is gone or `--offline` is asked. Feeds read with credentials are not kept.
@Suite struct CatalogCacheTests {
    let lectern = LecternProcess()

    @Test func aFeedIsRevalidatedAndShownOfflineWithItsDate() throws {
        let server = try TestHTTPServer(routes: [
            TestHTTPRoute("/catalog/new.xml", headers: ["Content-Type": "application/atom+xml", "ETag": "\"v1\""],
                          body: CatalogCommandTests.fixture("lectern_opds1_acquisition.xml")),
        ])
        let url = server.url("/catalog/new.xml")
        let first = try lectern.run(["catalog", url])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Open Book"))
        let second = try lectern.run(["catalog", url])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == first.stdout)
        #expect(!second.stderr.contains("offline"))
        #expect(server.requests.map { $0.headers["if-none-match"] } == [nil, "\"v1\""])

        let asked = try lectern.run(["catalog", "browse", url, "--offline"])
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(asked.stdout == first.stdout)
        #expect(server.requests.count == 2)
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        #expect(asked.stderr.contains("offline: showing the copy of \(url) kept on \(today)"), "\(asked.stderr)")

        server.stop()
        let gone = try lectern.run(["catalog", url])
        #expect(gone.status == 0, "\(gone.stderr)")
        #expect(gone.stdout == first.stdout)
        #expect(gone.stderr.contains("offline: showing the copy of \(url) kept on \(today)"), "\(gone.stderr)")

        let never = try lectern.run(["catalog", "browse", url + "?other", "--offline"])
        #expect(never.status == 1)
        #expect(never.stderr.contains("no copy of this feed was kept to read offline"))
    }

    @Test func aFeedWithOnlyLastModifiedIsAskedIfModifiedSince() throws {
        let date = "Wed, 25 Nov 2026 10:00:00 GMT"
        let server = try TestHTTPServer(routes: [
            TestHTTPRoute("/feed.xml", headers: ["Content-Type": "application/atom+xml", "Last-Modified": date],
                          body: CatalogCommandTests.fixture("lectern_opds1_acquisition.xml")),
        ])
        let first = try lectern.run(["catalog", server.url("/feed.xml")])
        let second = try lectern.run(["catalog", server.url("/feed.xml")])
        #expect(first.status == 0 && second.status == 0, "\(first.stderr) \(second.stderr)")
        #expect(second.stdout == first.stdout)
        #expect(server.requests.map { $0.headers["if-modified-since"] } == [nil, date])
    }

    @Test func aCaptivePortalAndASignedInFeedAreNotKept() throws {
        var route = TestHTTPRoute("/private.xml", headers: ["Content-Type": "application/atom+xml"],
                                  text: #"<feed xmlns="http://www.w3.org/2005/Atom"><id>p</id><title>Mine</title></feed>"#)
        route.authorization = ["Basic " + Data("u:p".utf8).base64EncodedString()]
        route.refusal = (401, ["WWW-Authenticate": "Basic realm=\"x\""], Data())
        let server = try TestHTTPServer(routes: [
            route,
            TestHTTPRoute("/portal", headers: ["Content-Type": "text/html"],
                          body: CatalogCommandTests.fixture("hostile/captive_portal.html")),
        ])
        #expect(try lectern.run(["catalog", server.url("/portal")]).status == 2)
        #expect(try lectern.run(["catalog", "add", server.url("/private.xml"), "--name", "mine",
                                 "--username", "u", "--password", "p"]).status == 0)
        let browse = try lectern.run(["catalog", "browse", "mine"])
        #expect(browse.status == 0, "\(browse.stderr)")
        #expect(browse.stdout.contains("Mine"))
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: lectern.home + "/cache/lectern/catalogs")) ?? []
        #expect(kept.isEmpty, "\(kept)")
    }
}
