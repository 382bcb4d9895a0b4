import Foundation
import Testing
import TestSupport

/// The browser reader page of `lectern serve`: a strict policy, no inline script, its script
/// and style sheet served from the binary, and the routes the script relies on.
@Suite struct ReaderPageTests {
    @Test func thePageLoadsItsOwnScriptUnderAStrictPolicy() throws {
        let server = try ServeProcess([ServeCommandTests.wasteland], publications: 1, home: LecternProcess())
        defer { server.stop() }
        let client = server.client
        let page = try client.request(server.path())
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        let policy = try #require(page.headers["content-security-policy"])
        #expect(policy.contains("script-src 'self'"))
        #expect(!policy.contains("unsafe-eval"))
        #expect(!policy.contains("script-src 'self' 'unsafe-inline'"))
        #expect(page.text.contains("<title>The Waste Land</title>"))
        // Every script is an external file of the same origin: nothing inline to inject into.
        #expect(page.text.components(separatedBy: "<script").count == 2)
        #expect(page.text.contains("<script src=\"~lectern/reader.js\" defer></script>"))

        let script = try client.request(server.path() + "~lectern/reader.js")
        #expect(script.status == 200)
        #expect(script.headers["content-type"] == "text/javascript; charset=utf-8")
        for route in ["manifest.json", "~readium/content-protection", "~readium/rights/copy?text=", "~readium/rights/print?pageCount="] {
            #expect(script.text.contains("'\(route)"), "\(route)")
        }
        let style = try client.request(server.path() + "~lectern/reader.css")
        #expect(style.status == 200 && style.headers["content-type"] == "text/css; charset=utf-8")
        #expect(try client.request(server.path() + "~lectern/other.js").status == 404)
        #expect(server.stop() == 0)
    }
}
