import Foundation
import Testing
import TestSupport

/// Hostile publications in a real browser (issue #27, item 1): served beside an LCP book,
/// their documents try every path to that book (its decrypted text), to the rights routes
/// (its copy and print allowances, or their own) and to another origin (the loot sent out by
/// scripts, or by markup alone). None reaches anything: the evil server receives no request
/// and the license's counters do not move (docs/SERVER-SECURITY.md).
@Suite(.serialized, .enabled(if: HeadlessChromium.executable != nil, "chromium is not installed"))
struct HostilePublicationTests {
    let lectern = LecternProcess()

    /// What is left of the LCP book's rights (served second), read by the server's status route.
    static func rightsLeft(_ server: ServeProcess) throws -> (copy: Int?, print: Int?) {
        let rights = try server.client(1).request(server.path(1) + "~readium/content-protection").json?["rights"] as? [String: Any]
        return (rights?["copyCharactersLeft"] as? Int, rights?["printPagesLeft"] as? Int)
    }

    /// True once the reader's frame has loaded its document and every image, style and font
    /// it asked for (the `load` event waits for them): the attacks made while parsing are over.
    static let frameLoaded = """
        (() => { const frame = document.getElementById('content');
                 return frame.dataset.state === 'ready' && frame.contentDocument && frame.contentDocument.readyState === 'complete'
                   && frame.contentWindow.location.pathname.endsWith('/OPS/c1.xhtml'); })()
        """

    @Test func aHostileBookReachesNoOtherBookNoRightsAndNoOtherOrigin() throws {
        let evil = try TestHTTPServer(routes: HostilePublications.evilRoutes)
        defer { evil.stop() }
        let path = Fixtures.temporaryDirectory("hostile") + "/hostile.epub"
        try HostilePublications.epub(
            title: "Hostile",
            head: "<meta name=\"referrer\" content=\"unsafe-url\"/>" + HostilePublications.staticAttacks(evil: evil.baseURL)
                + "<script><![CDATA[\n" + HostilePublications.script(evil: evil.baseURL) + "\n]]></script>",
            body: HostilePublications.staticBody(evil: evil.baseURL), to: path)
        let server = try ServeProcess([path, ServeCommandTests.lcpWasteland, "--passphrase", "dan"], publications: 2, home: lectern)
        defer { server.stop() }
        try #require(try Self.rightsLeft(server) == (2048, 100))

        let browser = try HeadlessChromium()
        defer { browser.close() }
        let page = try browser.open(server.readerURLs[0])
        try page.waitUntil(Self.frameLoaded, "the hostile chapter loaded")
        #expect(try page.string(BrowserReaderTests.frameText).contains("Hostile chapter."))
        #expect(try page.evaluate("document.getElementById('content').contentDocument.documentElement.getAttribute('data-hostile-ran')") as? String == nil)

        // The person follows the book's links and sends its form: none leaves the origin.
        // The link that would navigate the frame itself goes last (its refusal leaves an error page).
        for selector in ["#top", "#blank", "#send", "#leave"] {
            _ = try page.evaluate("document.getElementById('content').contentDocument.querySelector('\(selector)').scrollIntoView()")
            let point = try page.evaluate("""
                (() => { const frame = document.getElementById('content');
                         const r = frame.contentDocument.querySelector('\(selector)').getBoundingClientRect(), f = frame.getBoundingClientRect();
                         return [f.left + r.left + r.width / 2, f.top + r.top + r.height / 2]; })()
                """) as? [Double] ?? []
            try #require(point.count == 2)
            for type in ["mousePressed", "mouseReleased"] {
                try page.send("Input.dispatchMouseEvent", ["type": type, "x": point[0], "y": point[1], "button": "left", "clickCount": 1])
            }
        }
        // A last same-origin navigation, after the clicks: once it shows, they were handled.
        _ = try page.evaluate("document.getElementById('content').src = 'OPS/nav.xhtml'")
        try page.waitUntil("""
            (() => { const frame = document.getElementById('content');
                     try { return frame.contentWindow.location.pathname.endsWith('/OPS/nav.xhtml')
                                  && frame.contentDocument.readyState === 'complete'; } catch (error) { return false; } })()
            """, "the frame back on the book's own origin")

        let received = evil.requests.map { $0.path + "?" + $0.query }
        #expect(received.isEmpty, "the evil origin received: \(received)")
        #expect(try Self.rightsLeft(server) == (2048, 100), "the LCP book's rights were spent")
        #expect(server.stop() == 0)
    }

    @Test func aBookDocumentRunsNoScriptEvenOpenedOnItsOwn() throws {
        let evil = try TestHTTPServer(routes: HostilePublications.evilRoutes)
        defer { evil.stop() }
        let path = Fixtures.temporaryDirectory("hostile-top") + "/hostile.epub"
        try HostilePublications.epub(title: "Hostile", head: "<script><![CDATA[\n" + HostilePublications.script(evil: evil.baseURL) + "\n]]></script>",
                                     body: "<p>Hostile chapter.</p>", to: path)
        let server = try ServeProcess([path, ServeCommandTests.lcpWasteland, "--passphrase", "dan"], publications: 2, home: lectern)
        defer { server.stop() }
        let browser = try HeadlessChromium()
        defer { browser.close() }
        // Not in the reader's frame: the chapter's own URL in the browser's address bar.
        let page = try browser.open(server.readerURLs[0] + "OPS/c1.xhtml")
        try page.pollUntil("document.readyState === 'complete' && document.body && document.body.textContent.includes('Hostile chapter.')",
                           "the chapter shown on its own")
        #expect(try page.evaluate("document.documentElement.getAttribute('data-hostile-ran')") as? String == nil)
        #expect(evil.requests.isEmpty, "the evil origin received: \(evil.requests.map(\.path))")
        #expect(try Self.rightsLeft(server) == (2048, 100))
        #expect(server.stop() == 0)
    }

    @Test func everyPublicationHasItsOwnOriginAndSecret() throws {
        let server = try ServeProcess([ServeCommandTests.wasteland, ServeCommandTests.lcpWasteland, "--passphrase", "dan"],
                                      publications: 2, home: lectern)
        defer { server.stop() }
        let first = try #require(URL(string: server.readerURLs[0])), second = try #require(URL(string: server.readerURLs[1]))
        #expect(first.port != second.port)
        #expect(first.pathComponents[1] != second.pathComponents[1])
        // One book's origin answers nothing of the other's, with either secret.
        #expect(try server.client(0).request(server.path(1) + "EPUB/wasteland-content.xhtml").status == 404)
        let crossed = server.path(0).replacingOccurrences(of: "/pub/1/", with: "/pub/2/") + "EPUB/wasteland-content.xhtml"
        #expect(try server.client(0).request(crossed).status == 404)
        #expect(try server.client(1).request(server.path(1) + "EPUB/wasteland-content.xhtml").status == 200)
        // Every response carries the book policy: no script, nothing to another origin.
        let chapter = try server.client(1).request(server.path(1) + "EPUB/wasteland-content.xhtml")
        let policy = chapter.headers["content-security-policy"] ?? ""
        #expect(policy.hasPrefix("sandbox ") && !policy.contains("allow-scripts"))
        #expect(policy.contains("script-src 'none'") && policy.contains("connect-src 'none'"))
        #expect(server.stop() == 0)
    }
}
