import Foundation
@testable import PublicationServer
import Testing
import TestSupport

/// A `--header` given for a host goes to that host only: a redirect that leaves it drops
/// every such header, not only `Authorization` and `Cookie` (issue #27, item 12).
@Suite struct RedirectHeaderTests {
    @Test func aCustomHeaderDoesNotFollowARedirectToAnotherHost() throws {
        let other = try TestHTTPServer(routes: [TestHTTPRoute("/b/target.txt", text: "moved here")])
        let books = try TestHTTPServer(routes: [
            TestHTTPRoute("/book/moved.txt", status: 302, headers: ["Location": other.url("/b/target.txt")], text: ""),
            TestHTTPRoute("/book/back.txt", status: 307, headers: ["Location": "/book/here.txt"], text: ""),
            TestHTTPRoute("/book/here.txt", text: "same host"),
        ])
        let moved = books.url("/book/moved.txt"), back = books.url("/book/back.txt")
        let manifestPath = try RemoteLocalAddressTests.manifest([moved, back])
        let server = try ServeProcess([manifestPath, "--header", "127.0.0.1:\(books.port): X-Api-Key: k3y",
                                       "--header", "127.0.0.1:\(books.port): Cookie: session=abc",
                                       "--allow-host", "127.0.0.1:\(books.port)", "--allow-host", "127.0.0.1:\(other.port)"],
                                      publications: 1, home: LecternProcess())
        defer { server.stop() }
        let response = try server.client.request(server.path() + #require(RemoteHref.localHref(of: moved)))
        #expect(response.status == 200)
        #expect(response.text == "moved here")
        let same = try server.client.request(server.path() + #require(RemoteHref.localHref(of: back)))
        #expect(same.text == "same host")

        let otherRequests = other.requests
        #expect(otherRequests.contains { $0.path == "/b/target.txt" })
        for request in otherRequests {
            #expect(request.headers["x-api-key"] == nil, "X-Api-Key reached the other host: \(request.method) \(request.path)")
            #expect(request.headers["cookie"] == nil, "the cookie reached the other host: \(request.method) \(request.path)")
        }
        // On its own host, through a redirect too, the header is sent.
        let booksRequests = books.requests
        #expect(booksRequests.contains { $0.path == "/book/here.txt" })
        for request in booksRequests {
            #expect(request.headers["x-api-key"] == "k3y", "\(request.method) \(request.path)")
        }
        #expect(server.stop() == 0)
    }
}
