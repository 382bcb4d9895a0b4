import Foundation
import Testing
import TestSupport

/// `lectern catalog` as used from the listing it prints (#29 item 19): a navigation entry by
/// its number, a download into a folder yet to be made, a title only the search finds, formats
/// and HTML summaries in words.
@Suite struct CatalogUsabilityTests {
    let lectern = LecternProcess()

    static let root = """
        <feed xmlns="http://www.w3.org/2005/Atom"><id>urn:test:root</id><title>Comics Library</title>
        <updated>2026-01-01T00:00:00Z</updated>
        <link rel="search" type="application/opensearchdescription+xml" href="/catalog/opensearch.xml"/>
        <entry><title>Manga</title><id>urn:test:manga</id><updated>2026-01-01T00:00:00Z</updated>
        <link rel="subsection" href="/manga.xml" type="application/atom+xml;profile=opds-catalog;kind=acquisition"/></entry>
        </feed>
        """

    static let manga = """
        <feed xmlns="http://www.w3.org/2005/Atom"><id>urn:test:m</id><title>Manga shelf</title>
        <updated>2026-01-01T00:00:00Z</updated>
        <entry><title>Haruko (manga)</title><id>urn:test:haruko</id><updated>2026-01-01T00:00:00Z</updated>
        <summary type="html">&lt;p&gt;The &lt;b&gt;1922&lt;/b&gt; poem &amp;amp; its &amp;#233;cho&lt;/p&gt;</summary>
        <link rel="http://opds-spec.org/acquisition/open-access" href="/files/haruko" type="application/vnd.comicbook+zip"/></entry>
        </feed>
        """

    /// What the catalog's search answers (the OpenSearch template of the fixture).
    static let results = """
        <feed xmlns="http://www.w3.org/2005/Atom"><id>urn:test:s</id><title>Results</title>
        <updated>2026-01-01T00:00:00Z</updated>
        <entry><title>Haruko (manga)</title><id>urn:test:haruko</id><updated>2026-01-01T00:00:00Z</updated>
        <link rel="http://opds-spec.org/acquisition/open-access" href="/files/haruko" type="application/vnd.comicbook+zip"/></entry>
        </feed>
        """

    func server() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            TestHTTPRoute("/root.xml", headers: ["Content-Type": "application/atom+xml"], text: Self.root),
            TestHTTPRoute("/manga.xml", headers: ["Content-Type": "application/atom+xml"], text: Self.manga),
            TestHTTPRoute("/catalog/opensearch.xml", body: Fixtures.bytes(Fixtures.path("opds/lectern_opensearch.xml"))),
            TestHTTPRoute("/catalog/search.xml", headers: ["Content-Type": "application/atom+xml"], text: Self.results),
            TestHTTPRoute("/files/haruko", headers: ["Content-Type": "application/vnd.comicbook+zip"],
                          bodyFile: Fixtures.sample("cbz/derived-page-blanche-excerpt.cbz")),
        ])
    }

    @Test func browseFollowsTheNumberTheListingShows() throws {
        let server = try server()
        let root = try lectern.run(["catalog", "browse", server.url("/root.xml")])
        #expect(root.stdout.contains("1. Manga →"), "\(root.stdout)")
        let result = try lectern.run(["catalog", "browse", server.url("/root.xml"), "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Manga shelf"))
        // The format in words, not as a MIME type.
        #expect(result.stdout.contains("open-access: CBZ"), "\(result.stdout)")
    }

    /// `type="html"`: the words of the markup, entities decoded once.
    @Test func anHTMLSummaryIsShownAsText() throws {
        let server = try server()
        let result = try lectern.run(["catalog", "browse", "--json", server.url("/manga.xml")])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(result.json as? [String: Any])
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(entries.first?["summary"] as? String == "The 1922 poem & its écho")
    }

    /// A title of a deeper feed is found through the search; the folder `--output` names is made;
    /// the file has a plain name and the mode of any other file.
    @Test func getFindsATitleThroughTheSearchIntoANewFolder() throws {
        let server = try server()
        let folder = Fixtures.temporaryDirectory("catalog-usability") + "/new/books"
        let result = try lectern.run(["catalog", "get", server.url("/root.xml"), "Haruko (manga)", "--output", folder])
        #expect(result.status == 0, "\(result.stderr)")
        let path = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(path == folder + "/Haruko_manga.cbz")
        let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode & 0o044 == 0o044, "mode \(String(mode, radix: 8))")
        #expect(server.requests.contains { $0.path == "/catalog/search.xml" })
    }
}
