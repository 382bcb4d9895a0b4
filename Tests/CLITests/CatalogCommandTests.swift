import Foundation
import Testing
import TestSupport

/// `lectern catalog` against OPDS feeds served on loopback.
@Suite struct CatalogCommandTests {
    let lectern = LecternProcess()

    static func fixture(_ name: String) -> Data { Fixtures.bytes(Fixtures.path("opds/" + name)) }

    static let searchResults = """
        <feed xmlns="http://www.w3.org/2005/Atom"><id>s</id><title>Results for the search</title>
        <entry><title>Found Book</title><id>f</id><author><name>Finder</name></author>
        <link rel="http://opds-spec.org/acquisition" href="/files/open.epub" type="application/epub+zip"/></entry></feed>
        """

    static let pagedJSON = """
        {"metadata": {"title": "Page one"}, "links": [{"rel": "next", "href": "page2.json", "type": "application/opds+json"}],
         "publications": []}
        """

    static let authentication = """
        {"id": "http://127.0.0.1/auth", "title": "Northfield Public Library\\u001B[2J",
         "authentication": [{"type": "http://opds-spec.org/auth/basic", "labels": {"login": "Card number", "password": "PIN"}}]}
        """

    func server() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            TestHTTPRoute("/catalog/root.xml", headers: ["Content-Type": "application/atom+xml"], body: Self.fixture("lectern_opds1_navigation.xml")),
            TestHTTPRoute("/catalog/new.xml", headers: ["Content-Type": "application/atom+xml"], body: Self.fixture("lectern_opds1_acquisition.xml")),
            TestHTTPRoute("/catalog/opensearch.xml", body: Self.fixture("lectern_opensearch.xml")),
            TestHTTPRoute("/catalog/search.xml", text: Self.searchResults),
            TestHTTPRoute("/catalog/page1.json", text: Self.pagedJSON),
            TestHTTPRoute("/catalog/page2.json", body: Self.fixture("lectern_opds2.json")),
            TestHTTPRoute("/private.xml", status: 401, headers: ["Content-Type": "application/opds-authentication+json"],
                          text: Self.authentication),
            TestHTTPRoute("/portal", headers: ["Content-Type": "text/html"], body: Self.fixture("hostile/captive_portal.html")),
            TestHTTPRoute("/files/open.epub", headers: ["Content-Type": "application/epub+zip"],
                          bodyFile: Fixtures.sample("epub/idpf-wasteland.epub")),
        ])
    }

    @Test func browsesANavigationFeedAsTextAndJSON() throws {
        let server = try server()
        let text = try lectern.run(["catalog", server.url("/catalog/root.xml")])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Test Library"))
        #expect(text.stdout.contains("1. New arrivals (9) →"))
        #expect(text.stdout.contains("2. Popular →"))
        let json = try lectern.run(["catalog", "browse", "--json", server.url("/catalog/new.xml")])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(json.json as? [String: Any])
        #expect(object["title"] as? String == "New arrivals")
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(entries.map { $0["title"] as? String } == ["A Borrowed Book", "An Adobe Book", "Open Book"])
        #expect(entries[0]["authors"] as? [String] == ["Ada Writer", "Bo Coauthor"])
        let pages = try #require(object["pages"] as? [String: String])
        #expect(pages["next"] == server.url("/catalog/new.xml?page=3"))
    }

    @Test func searchesThroughTheOpenSearchDescription() throws {
        let server = try server()
        let result = try lectern.run(["catalog", server.url("/catalog/root.xml"), "--search", "wild cats"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Results for the search"))
        #expect(result.stdout.contains("1. Found Book — Finder"))
        let search = try #require(server.requests.first { $0.path == "/catalog/search.xml" })
        #expect(search.query.hasPrefix("q=wild%20cats"))
    }

    @Test func followsTheNextPage() throws {
        let server = try server()
        let result = try lectern.run(["catalog", server.url("/catalog/page1.json"), "--page", "next", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(result.json as? [String: Any])
        #expect(object["title"] as? String == "Test Library")
        let missing = try lectern.run(["catalog", server.url("/catalog/page2.json"), "--page", "last"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("the feed has no last page"))
    }

    @Test func aCaptivePortalIsNotACatalog() throws {
        let server = try server()
        let result = try lectern.run(["catalog", server.url("/portal")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("not an OPDS catalog (an HTML page"))
        let missing = try lectern.run(["catalog", server.url("/nothing-here.xml")])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("HTTP 404"))
    }

    @Test func aSignInIsAskedForWithTheCatalogsOwnWords() throws {
        let server = try server()
        let result = try lectern.run(["catalog", server.url("/private.xml")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("the catalog asks you to sign in to Northfield Public Library[2J (Card number, PIN)"),
                "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"))
    }

    @Test func getsAnOpenAccessBookAndImportsIt() throws {
        let server = try server()
        let folder = Fixtures.temporaryDirectory("catalog-get")
        let result = try lectern.run(["catalog", "get", server.url("/catalog/new.xml"), "3", "--output", folder])
        #expect(result.status == 0, "\(result.stderr)")
        let path = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(path == folder + "/Open_Book.epub")
        #expect(FileManager.default.contents(atPath: path) == Fixtures.bytes(Fixtures.sample("epub/idpf-wasteland.epub")))
        let list = try lectern.run(["list", "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Open_Book.epub"))
    }

    @Test func adobeOnlyIsRefusedWithWhatIsOffered() throws {
        let server = try server()
        let result = try lectern.run(["catalog", "get", server.url("/catalog/new.xml"), "An Adobe Book"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("offered only with Adobe DRM"))
        #expect(result.stderr.contains("4.99 EUR"))
    }
}
