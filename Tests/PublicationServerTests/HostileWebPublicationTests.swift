import Foundation
import Testing
import TestSupport

/// A hostile Readium Web Publication in a real browser (issue #27): served beside an LCP book
/// and a remote web publication whose host needs a `--header` token, its scripted chapter,
/// external script and scripted SVG try every path to the other books (decrypted text, the
/// token-fetched chapter), to the rights routes and to another origin. Nothing reaches anything:
/// the evil server and the private book's host receive no request, the license's counters do
/// not move (docs/SERVER-SECURITY.md). The same chapter served without the server's protections
/// does reach the evil server: the test sees an attack that works.
@Suite(.serialized, .enabled(if: HeadlessChromium.executable != nil, "chromium is not installed"))
struct HostileWebPublicationTests {
    let lectern = LecternProcess()
    static let token = "Bearer private-token"

    /// A host whose chapter needs the token, as a paying catalog's would.
    static func privateHost() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [TestHTTPRoute("/private/c1.html", headers: ["Content-Type": "text/html"],
                                                  text: "<!DOCTYPE html><html><body><p>Private chapter.</p></body></html>")])
    }

    /// The hostile chapter's parts: the EPUB attacks, then the web publication's own.
    static func chapter(evil: String, privateBook: String) -> (head: String, body: String, script: String, svg: String) {
        let script = HostilePublications.script(evil: evil) + "\n" + HostilePublications.webScript(evil: evil, privateBook: privateBook)
        return ("<meta name=\"referrer\" content=\"unsafe-url\">" + HostilePublications.staticAttacks(evil: evil)
                    + "<script>" + script + "</script>",
                HostilePublications.staticBody(evil: evil) + HostilePublications.webStaticBody(evil: evil, privateBook: privateBook),
                script, HostilePublications.svg(evil: evil))
    }

    @Test func aHostileWebPublicationReachesNoOtherBookNoRightsAndNoOtherOrigin() throws {
        let evil = try TestHTTPServer(routes: HostilePublications.evilRoutes)
        defer { evil.stop() }
        let privateBook = try Self.privateHost()
        defer { privateBook.stop() }
        let folder = Fixtures.temporaryDirectory("hostile-webpub")
        let parts = Self.chapter(evil: evil.baseURL, privateBook: privateBook.baseURL)
        try HostilePublications.webpub(head: parts.head, body: parts.body, externalScript: parts.script, svg: parts.svg,
                                       to: folder + "/hostile.webpub")
        try HostilePublications.privateRemoteBook(privateBook: privateBook.baseURL, to: folder + "/private.json")
        let privateAuthority = "127.0.0.1:\(privateBook.port)"
        let server = try ServeProcess([folder + "/hostile.webpub", ServeCommandTests.lcpWasteland, folder + "/private.json",
                                       "--passphrase", "dan", "--header", "3=\(privateAuthority): Authorization: \(Self.token)",
                                       "--allow-host", privateAuthority], publications: 3, home: lectern)
        defer { server.stop() }
        try #require(try HostilePublicationTests.rightsLeft(server) == (2048, 100))
        // The private book's own origin does fetch its chapter with the token: what the attacks go for exists.
        let fetched = try server.client(2).request(server.path(2) + "~remote/http/\(privateAuthority)/private/c1.html")
        try #require(fetched.status == 200 && fetched.text.contains("Private chapter."))
        try #require(privateBook.requests.allSatisfy { $0.headers["authorization"] == Self.token })
        let privateRequests = privateBook.requests.count

        let browser = try HeadlessChromium()
        defer { browser.close() }
        let page = try browser.open(server.readerURLs[0])
        try page.waitUntil("""
            (() => { const frame = document.getElementById('content');
                     return frame.dataset.state === 'ready' && frame.contentDocument && frame.contentDocument.readyState === 'complete'
                       && frame.contentWindow.location.pathname.endsWith('/html/c1.html'); })()
            """, "the hostile chapter loaded")
        #expect(try page.string(BrowserReaderTests.frameText).contains("Hostile chapter."))
        #expect(try page.evaluate("document.getElementById('content').contentDocument.documentElement.getAttribute('data-hostile-ran')") as? String == nil)
        try Self.followEveryLink(page)
        // A last same-origin navigation, after the clicks: once it shows, they were handled.
        _ = try page.evaluate("document.getElementById('content').src = 'html/hostile.svg'")
        try page.waitUntil("""
            (() => { const frame = document.getElementById('content');
                     try { return frame.contentWindow.location.pathname.endsWith('/html/hostile.svg')
                                  && frame.contentDocument.readyState === 'complete'; } catch (error) { return false; } })()
            """, "the frame on the book's scripted SVG")
        #expect(try page.evaluate("document.getElementById('content').contentDocument.documentElement.getAttribute('data-hostile-ran')") as? String == nil)

        let received = evil.requests.map { $0.path + "?" + $0.query }
        #expect(received.isEmpty, "the evil origin received: \(received)")
        let reachedPrivate = privateBook.requests.dropFirst(privateRequests).map(\.path)
        #expect(reachedPrivate.isEmpty, "the private book's host was asked for: \(reachedPrivate)")
        #expect(try HostilePublicationTests.rightsLeft(server) == (2048, 100), "the LCP book's rights were spent")
        #expect(server.stop() == 0)
    }

    /// The control: the same chapter from a server without Lectern's protections (no sandbox,
    /// no CSP) runs its scripts and sends to the evil origin, so the test above would see a leak.
    @Test func theSameChapterUnprotectedReachesTheEvilServer() throws {
        let evil = try TestHTTPServer(routes: HostilePublications.evilRoutes)
        defer { evil.stop() }
        let parts = Self.chapter(evil: evil.baseURL, privateBook: "http://127.0.0.1:9")
        let chapter = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Chapter 1</title>\(parts.head)</head><body>\(parts.body)</body></html>"
        let plain = try TestHTTPServer(routes: [
            TestHTTPRoute("/pub/1/html/c1.html", headers: ["Content-Type": "text/html"], text: chapter),
            TestHTTPRoute("/pub/1/html/hostile.svg", headers: ["Content-Type": "image/svg+xml"], text: parts.svg),
        ])
        defer { plain.stop() }
        let browser = try HeadlessChromium()
        defer { browser.close() }
        _ = try browser.open(plain.url("/pub/1/html/c1.html"))
        // The script ends by taking the whole page to the evil origin: wait for the loot there.
        // Wait for the two ways it goes (the first loot can come by another road before them).
        let deadline = Date().addingTimeInterval(60)
        var loot: [TestHTTPRequest] = []
        while !loot.contains(where: { $0.path == "/img" || $0.path == "/top" }) && Date() < deadline {
            loot = evil.requests.filter { $0.query.contains("capability%3D") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(!loot.isEmpty, "the evil origin received only \(evil.requests.map(\.path))")
        #expect(loot.contains { $0.path == "/img" || $0.path == "/top" }, "the loot came by \(loot.map(\.path))")
    }

    /// Clicks the chapter's links and its form as a person would (the one navigating the frame last).
    static func followEveryLink(_ page: HeadlessChromium.Page) throws {
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
    }
}
