import Foundation
import Testing
import TestSupport

/// A `--header` is a credential for one book: with several publications served, a manifest that
/// lists a URL on another book's host gets that URL fetched without the other book's header
/// (#27; found by HostileWebPublicationTests' author: markup alone made the server send the
/// token for the hostile book), and a header that names no book is refused.
@Suite struct HeaderScopeTests {
    static let token = "Bearer only-for-book-2"

    @Test func aHeaderIsSentOnlyForTheBookItNames() throws {
        let privateHost = try TestHTTPServer(routes: [
            TestHTTPRoute("/private/c1.html", headers: ["Content-Type": "text/html"], text: "<html><body><p>Private chapter.</p></body></html>"),
        ])
        defer { privateHost.stop() }
        let authority = "127.0.0.1:\(privateHost.port)"
        let folder = Fixtures.temporaryDirectory("header-scope")
        // The listing book: its own chapter, and a resource on the private book's host.
        let listing: [String: Any] = [
            "metadata": ["title": "Lists another host", "identifier": "urn:test:lister"],
            "readingOrder": [["href": privateHost.url("/private/c1.html"), "type": "text/html"]],
            "resources": [["href": privateHost.url("/private/c1.html"), "type": "text/html"]],
        ]
        try JSONSerialization.data(withJSONObject: listing).write(to: URL(fileURLWithPath: folder + "/lister.json"))
        try HostilePublications.privateRemoteBook(privateBook: privateHost.baseURL, to: folder + "/private.json")

        let server = try ServeProcess([folder + "/lister.json", folder + "/private.json", "--header", "2=\(authority): Authorization: \(Self.token)",
                                       "--allow-host", authority], publications: 2, home: LecternProcess())
        defer { server.stop() }
        let path = "~remote/http/\(authority)/private/c1.html"
        // Through the book the header is for: with it.
        let own = try server.client(1).request(server.path(1) + path)
        #expect(own.status == 200 && own.text.contains("Private chapter."))
        let withToken = privateHost.requests.filter { $0.headers["authorization"] == Self.token }.count
        #expect(withToken >= 1)
        // Through the book that only lists the host: never with it.
        _ = try server.client(0).request(server.path(0) + path)
        let later = privateHost.requests.filter { $0.headers["authorization"] == Self.token }.count
        #expect(later == withToken, "the other book's fetch carried the token: \(privateHost.requests.map(\.path))")
    }

    @Test func aHeaderThatNamesNoBookIsRefusedWhenSeveralAreServed() throws {
        let lectern = LecternProcess()
        let twoBooks = try lectern.run(["serve", ServeCommandTests.wasteland, ServeCommandTests.wasteland,
                                        "--header", "books.example: Authorization: Bearer x"])
        #expect(twoBooks.status == 64 || twoBooks.status == 2, "\(twoBooks.status)")
        #expect(twoBooks.stderr.contains("say which one it is for") && twoBooks.stderr.contains("'N=books.example"), "\(twoBooks.stderr)")
        let outOfRange = try lectern.run(["serve", ServeCommandTests.wasteland, "--header", "2=books.example: Authorization: Bearer x"])
        #expect(outOfRange.status != 0)
        #expect(outOfRange.stderr.contains("there is 1 publication"), "\(outOfRange.stderr)")
    }
}
