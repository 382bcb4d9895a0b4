import Foundation
import Shared
@testable import PublicationServer
import Testing
import TestSupport

/// A webpub manifest whose resources are on two other (loopback) servers, served by
/// `lectern serve --header 'HOST:PORT: Authorization: Bearer TOKEN'`: the browser's manifest
/// points only at the local server, every resource comes through it, the token goes to its
/// host and never to the other one (directly or by a redirect), and nothing outside the
/// manifest is fetched (no open proxy).
@Suite struct RemoteProxyTests {
    static let token = "Bearer s3cret-token"

    static func html(_ text: String) -> String {
        "<!DOCTYPE html><html><head><title>\(text)</title></head><body><p>\(text)</p></body></html>"
    }

    @Test func remoteResourcesAreProxiedWithTheTokenForTheirHostOnly() throws {
        let other = try TestHTTPServer(routes: [
            TestHTTPRoute("/b/elsewhere.html", headers: ["Content-Type": "text/html"], text: Self.html("Elsewhere")),
            TestHTTPRoute("/b/direct.html", headers: ["Content-Type": "text/html"], text: Self.html("Direct on the other host")),
        ])
        let books = try TestHTTPServer(routes: [
            TestHTTPRoute("/book/chapter1.html", headers: ["Content-Type": "text/html"], text: Self.html("Remote chapter one")),
            TestHTTPRoute("/book/chapter%202.html", headers: ["Content-Type": "text/html"], text: Self.html("Remote chapter two")),
            TestHTTPRoute("/book/moved.html", status: 302, headers: ["Location": other.url("/b/elsewhere.html")], text: ""),
            TestHTTPRoute("/book/private.html", headers: ["Content-Type": "text/html"], text: Self.html("Not in the manifest")),
        ])
        let folder = Fixtures.temporaryDirectory("remote-webpub")
        let manifestPath = folder + "/manifest.json"
        let manifest: [String: Any] = [
            "@context": "https://readium.org/webpub-manifest/context.jsonld",
            "metadata": ["title": "A remote book", "identifier": "urn:test:remote"],
            "links": [["rel": "self", "href": books.url("/book/manifest.json"), "type": "application/webpub+json"]],
            "readingOrder": [
                ["href": books.url("/book/chapter1.html"), "type": "text/html", "title": "One"],
                ["href": books.url("/book/chapter%202.html#start"), "type": "text/html", "title": "Two"],
                ["href": books.url("/book/moved.html"), "type": "text/html"],
                ["href": other.url("/b/direct.html"), "type": "text/html"],
            ],
        ]
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: manifestPath))

        // Both servers are on loopback, which is refused unless allowed.
        let server = try ServeProcess([manifestPath, "--header", "127.0.0.1:\(books.port): Authorization: \(Self.token)",
                                       "--allow-host", "127.0.0.1:\(books.port)", "--allow-host", "127.0.0.1:\(other.port)"],
                                      publications: 1, home: LecternProcess())
        defer { server.stop() }
        let client = server.client
        let served = try client.request(server.path() + "manifest.json")
        #expect(served.status == 200)
        let order = (served.json?["readingOrder"] as? [[String: Any]] ?? []).compactMap { $0["href"] as? String }
        #expect(order == [
            "~remote/http/127.0.0.1:\(books.port)/book/chapter1.html",
            "~remote/http/127.0.0.1:\(books.port)/book/chapter%202.html#start",
            "~remote/http/127.0.0.1:\(books.port)/book/moved.html",
            "~remote/http/127.0.0.1:\(other.port)/b/direct.html",
        ])
        // The only absolute URL left is the manifest's own, on the local server.
        #expect(!served.text.contains("127.0.0.1:\(books.port)/book/manifest.json"))

        let expected = ["Remote chapter one", "Remote chapter two", "Elsewhere", "Direct on the other host"]
        for (href, text) in zip(order, expected) {
            let response = try client.request(server.path() + Href.removingFragment(href))
            #expect(response.status == 200, "\(href)")
            #expect(response.text.contains(text), "\(href): \(response.text)")
            #expect(response.headers["content-type"]?.hasPrefix("text/html") == true)
        }
        let ranged = try client.request(server.path() + order[0], headers: ["Range": "bytes=0-14"])
        #expect(ranged.status == 206 && ranged.text == "<!DOCTYPE html>")

        // Not in the manifest: refused here, never asked of the remote server.
        let outside = try client.request(server.path() + "~remote/http/127.0.0.1:\(books.port)/book/private.html")
        #expect(outside.status == 404)
        #expect(try client.request(server.path() + "~remote/http/example.com/book/chapter1.html").status == 404)

        let booksRequests = books.requests
        #expect(!booksRequests.isEmpty)
        #expect(!booksRequests.contains { $0.path == "/book/private.html" })
        for request in booksRequests {
            #expect(request.headers["authorization"] == Self.token, "\(request.method) \(request.path)")
        }
        let otherRequests = other.requests
        #expect(otherRequests.contains { $0.path == "/b/elsewhere.html" })
        #expect(otherRequests.contains { $0.path == "/b/direct.html" })
        for request in otherRequests {
            #expect(request.headers["authorization"] == nil, "the token reached the other host: \(request.method) \(request.path)")
        }
        #expect(server.stop() == 0)
    }

    @Test func aHeaderWithoutItsHostIsAUsageError() throws {
        let result = try LecternProcess().run(["serve", ServeCommandTests.wasteland, "--header", "Authorization: Bearer x"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--header"))
    }

    @Test func hostHeadersParseAndMatchTheirHostOnly() throws {
        let header = try #require(HostHeader(parsing: "Books.Example: Authorization: Bearer abc"))
        #expect(header == HostHeader(authority: "books.example", name: "Authorization", value: "Bearer abc"))
        #expect(header.applies(to: "https://books.example/a.html"))
        #expect(header.applies(to: "http://BOOKS.example:8080/a.html"))
        #expect(!header.applies(to: "https://other.example/a.html"))
        #expect(!header.applies(to: "https://books.example.evil.test/a.html"))
        #expect(!header.applies(to: "https://evil.test/?https://books.example/"))
        #expect(!header.applies(to: "file:///books.example/a.html"))

        let withPort = try #require(HostHeader(parsing: "127.0.0.1:8443: X-Key: v"))
        #expect(withPort.applies(to: "http://127.0.0.1:8443/x"))
        #expect(!withPort.applies(to: "http://127.0.0.1:8444/x"))
        #expect(!withPort.applies(to: "http://127.0.0.1/x"))
        let https = try #require(HostHeader(parsing: "books.example:443: Authorization: Basic eDp5"))
        #expect(https.applies(to: "https://books.example/x"))
        #expect(!https.applies(to: "http://books.example/x"))

        for bad in ["Authorization: Bearer x", "books.example Authorization: x", "books.example: : x",
                    "books.example: Authorization: a\r\nX-Evil: 1", ": Authorization: x"] {
            #expect(HostHeader(parsing: bad) == nil, "\(bad)")
        }
    }
}
