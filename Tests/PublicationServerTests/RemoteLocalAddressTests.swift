import Foundation
@testable import PublicationServer
import Testing
import TestSupport

/// A web publication cannot make `lectern serve` fetch what is on this machine or its local
/// networks and hand it to the page (SSRF, issue #27 item 2): a remote resource on a loopback
/// or private address is refused, after resolution and on every redirect hop, unless the
/// person allowed its host with `--allow-host`.
@Suite struct RemoteLocalAddressTests {
    static let secret = "admin password 5f3c"

    /// A manifest file listing `urls` as its reading order.
    static func manifest(_ urls: [String]) throws -> String {
        let path = Fixtures.temporaryDirectory("local-address-webpub") + "/manifest.json"
        let manifest: [String: Any] = [
            "@context": "https://readium.org/webpub-manifest/context.jsonld",
            "metadata": ["title": "Reaching inside", "identifier": "urn:test:ssrf"],
            "readingOrder": urls.map { ["href": $0, "type": "text/plain"] },
        ]
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aLoopbackResourceIsRefusedUnlessItsHostIsAllowed() throws {
        let inside = try TestHTTPServer(routes: [TestHTTPRoute("/private/admin.txt", text: Self.secret)])
        let byName = "http://localhost:\(inside.port)/private/admin.txt"
        let manifestPath = try Self.manifest([inside.url("/private/admin.txt"), byName])

        let server = try ServeProcess([manifestPath], publications: 1, home: LecternProcess())
        defer { server.stop() }
        for url in [inside.url("/private/admin.txt"), byName] {
            let local = try #require(RemoteHref.localHref(of: url))
            let response = try server.client.request(server.path() + local)
            #expect(response.status != 200, "\(url)")
            #expect(!response.text.contains(Self.secret), "\(url): \(response.text)")
        }
        #expect(inside.requests.isEmpty, "\(inside.requests.map(\.path))")
        #expect(server.stop() == 0)

        // The person's own server, allowed by its host and port.
        let allowed = try ServeProcess([manifestPath, "--allow-host", "127.0.0.1:\(inside.port)"], publications: 1, home: LecternProcess())
        defer { allowed.stop() }
        let local = try #require(RemoteHref.localHref(of: inside.url("/private/admin.txt")))
        let response = try allowed.client.request(allowed.path() + local)
        #expect(response.status == 200)
        #expect(response.text == Self.secret)
        // Another port of that host is not allowed.
        let other = try #require(RemoteHref.localHref(of: byName))
        #expect(try allowed.client.request(allowed.path() + other).status != 200)
        #expect(allowed.stop() == 0)
    }

    @Test func aRedirectToALoopbackAddressIsRefused() throws {
        let inside = try TestHTTPServer(routes: [TestHTTPRoute("/private/admin.txt", text: Self.secret)])
        let allowed = try TestHTTPServer(routes: [
            TestHTTPRoute("/book/chapter.txt", status: 302, headers: ["Location": inside.url("/private/admin.txt")], text: ""),
        ])
        let chapter = allowed.url("/book/chapter.txt")
        let server = try ServeProcess([try Self.manifest([chapter]), "--allow-host", "127.0.0.1:\(allowed.port)"],
                                      publications: 1, home: LecternProcess())
        defer { server.stop() }
        let response = try server.client.request(server.path() + #require(RemoteHref.localHref(of: chapter)))
        #expect(response.status != 200)
        #expect(!response.text.contains(Self.secret))
        #expect(allowed.requests.contains { $0.path == "/book/chapter.txt" })
        #expect(inside.requests.isEmpty, "the redirect reached the loopback server")
        #expect(server.stop() == 0)
    }

    @Test func allowedHostsParseAndMatchTheirHostAndPort() throws {
        let host = try #require(AllowedHost(parsing: "NAS.local:8080"))
        #expect(host.matches("http://nas.local:8080/book/a.html"))
        #expect(!host.matches("http://nas.local/book/a.html"))
        #expect(!host.matches("http://nas.local:8081/book/a.html"))
        #expect(try #require(AllowedHost(parsing: "nas.local")).matches("https://nas.local:9999/a"))
        #expect(AllowedHost(origin: "https://Books.example/shelf/manifest.json") == AllowedHost(parsing: "books.example:443"))
        #expect(AllowedHost(origin: "http://[::1]:8080/m.json") == AllowedHost(parsing: "[::1]:8080"))
        for bad in ["", "nas.local/path", "user@nas.local", "a b", "nas.local\r\n"] {
            #expect(AllowedHost(parsing: bad) == nil, "\(bad)")
        }
    }
}
