import Foundation
import Testing
import TestSupport

/// The rights routes answer only the reader page's own script (issue #27, item 7): not a
/// client without the page's capability, not another site holding a leaked URL, and the
/// URL's secret never leaks through `Referer` even when a book's `<meta>` asks for it.
@Suite(.serialized) struct RightsCapabilityTests {
    let lectern = LecternProcess()

    static func rightsLeft(_ server: ServeProcess) throws -> (copy: Int?, print: Int?) {
        let rights = try server.client.request(server.path() + "~readium/content-protection").json?["rights"] as? [String: Any]
        return (rights?["copyCharactersLeft"] as? Int, rights?["printPagesLeft"] as? Int)
    }

    @Test func theRightsRoutesRequireTheReaderPagesCapabilityAndItsOrigin() throws {
        let server = try ServeProcess([ServeCommandTests.lcpWasteland, "--passphrase", "dan"], publications: 1, home: lectern)
        defer { server.stop() }
        let print = server.path() + "~readium/rights/print?pageCount=10"
        let copy = server.path() + "~readium/rights/copy?text=" + String(repeating: "x", count: 2000)
        // Without the capability, or with a wrong one: refused, nothing spent.
        for headers in [[:], ["Lectern-Capability": "0123456789abcdef0123456789abcdef01234567"]] {
            #expect(try server.client.request(print, headers: headers).status == 403)
            #expect(try server.client.request(copy, headers: headers).status == 403)
        }
        // With the reader page's capability, but sent by another site: refused.
        let reader = try server.readerPageClient()
        #expect(try reader.request(print, headers: ["Sec-Fetch-Site": "cross-site"]).status == 403)
        #expect(try reader.request(print, headers: ["Sec-Fetch-Site": "same-site"]).status == 403)
        #expect(try reader.request(print, headers: ["Origin": "http://127.0.0.1:\(server.port + 1)"]).status == 403)
        #expect(try Self.rightsLeft(server) == (2048, 100))
        // As the reader page sends it: allowed.
        let allowed = try reader.request(print, headers: ["Sec-Fetch-Site": "same-origin", "Origin": "http://127.0.0.1:\(server.port)"])
        #expect(allowed.status == 200)
        #expect(try Self.rightsLeft(server) == (2048, 90))
        #expect(server.stop() == 0)
    }

    @Test(.enabled(if: HeadlessChromium.executable != nil, "chromium is not installed"))
    func anotherSiteWithTheURLCannotSpendRights() throws {
        let server = try ServeProcess([ServeCommandTests.lcpWasteland, "--passphrase", "dan"], publications: 1, home: lectern)
        defer { server.stop() }
        let base = server.readerURLs[0] + "~readium/rights/"
        let text = String(repeating: "x", count: 2000)
        // A page of another origin that learnt the URL (say, from a leaked Referer).
        let attack = """
            <!DOCTYPE html><html><body>
            <img src="\(base)print?pageCount=10">
            <img src="\(base)copy?peek=false&amp;text=\(text)">
            <iframe src="\(base)print?pageCount=5"></iframe>
            <script>
            window.done = Promise.allSettled([
              fetch('\(base)print?pageCount=7', { mode: 'no-cors', credentials: 'include' }),
              fetch('\(base)copy?text=\(text)', { mode: 'no-cors' }),
              fetch('\(base)print?pageCount=3', { headers: { 'Lectern-Capability': 'guess' } }),
            ]).then(() => true);
            </script></body></html>
            """
        let evil = try TestHTTPServer(routes: [TestHTTPRoute("/attack.html", headers: ["Content-Type": "text/html"], text: attack)])
        defer { evil.stop() }
        let browser = try HeadlessChromium()
        defer { browser.close() }
        let page = try browser.open(evil.url("/attack.html"))
        try page.waitUntil("document.readyState === 'complete'", "the attack page loaded, its images and frame tried")
        #expect(try page.evaluate("window.done") as? Bool == true)
        #expect(try Self.rightsLeft(server) == (2048, 100), "another site spent the rights")
        #expect(server.stop() == 0)
    }

    @Test(.enabled(if: HeadlessChromium.executable != nil, "chromium is not installed"))
    func theSecretNeverLeaksThroughReferer() throws {
        let evil = try TestHTTPServer(routes: HostilePublications.evilRoutes)
        defer { evil.stop() }
        let path = Fixtures.temporaryDirectory("referrer") + "/referrer.epub"
        try HostilePublications.epub(title: "Referrer", head: "<meta name=\"referrer\" content=\"unsafe-url\"/>",
                                     body: "<p>Hostile chapter.</p><img src=\"\(evil.baseURL)/pixel.png\" alt=\"\"/>", to: path)
        let server = try ServeProcess([path], publications: 1, home: lectern)
        defer { server.stop() }
        let secret = String(server.path().split(separator: "/")[0])
        let browser = try HeadlessChromium()
        defer { browser.close() }
        let page = try browser.open(server.readerURLs[0])
        try page.waitUntil(HostilePublicationTests.frameLoaded, "the chapter and its image loaded")
        let leaked = evil.requests.filter { request in request.headers.values.contains { $0.contains(secret) } }
        #expect(leaked.isEmpty, "the secret reached another origin: \(leaked.map(\.headers))")
        #expect(evil.requests.isEmpty, "another origin was asked: \(evil.requests.map(\.path))")
        #expect(server.stop() == 0)
    }
}
