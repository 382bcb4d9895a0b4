import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `lectern catalog add/list/browse/search/get/remove` on a catalog saved by name.
@Suite struct SavedCatalogTests {
    let lectern = LecternProcess()

    func server() throws -> TestHTTPServer {
        try TestHTTPServer(routes: [
            TestHTTPRoute("/catalog/root.xml", headers: ["Content-Type": "application/atom+xml"],
                          body: CatalogCommandTests.fixture("lectern_opds1_navigation.xml")),
            TestHTTPRoute("/catalog/new.xml", headers: ["Content-Type": "application/atom+xml"],
                          body: CatalogCommandTests.fixture("lectern_opds1_acquisition.xml")),
            TestHTTPRoute("/catalog/opensearch.xml", body: CatalogCommandTests.fixture("lectern_opensearch.xml")),
            TestHTTPRoute("/catalog/search.xml", text: CatalogCommandTests.searchResults),
            TestHTTPRoute("/files/open.epub", headers: ["Content-Type": "application/epub+zip"],
                          bodyFile: Fixtures.sample("epub/idpf-wasteland.epub")),
        ])
    }

    @Test func aSavedCatalogIsBrowsedSearchedGotAndRemovedByName() throws {
        let server = try server()
        let added = try lectern.run(["catalog", "add", server.url("/catalog/root.xml"), "--name", "Town"])
        #expect(added.status == 0, "\(added.stderr)")

        let list = try lectern.run(["catalog", "list", "--json"])
        let catalogs = try #require(list.json as? [[String: Any]])
        #expect(catalogs.map { $0["name"] as? String } == ["Town"])
        #expect(catalogs.first?["url"] as? String == server.url("/catalog/root.xml"))

        let browse = try lectern.run(["catalog", "browse", "Town"])
        #expect(browse.status == 0, "\(browse.stderr)")
        #expect(browse.stdout.contains("1. New arrivals (9) →"))
        let feed = try lectern.run(["catalog", "browse", "Town", "--href", "new.xml", "--json"])
        #expect(feed.status == 0, "\(feed.stderr)")
        #expect((feed.json as? [String: Any])?["title"] as? String == "New arrivals")

        let search = try lectern.run(["catalog", "search", "Town", "wild cats"])
        #expect(search.status == 0, "\(search.stderr)")
        #expect(search.stdout.contains("1. Found Book — Finder"))

        let folder = Fixtures.temporaryDirectory("saved-catalog-get")
        let get = try lectern.run(["catalog", "get", "Town", "Open Book", "--href", "new.xml", "--output", folder])
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout == folder + "/Open_Book.epub\n")

        let removed = try lectern.run(["catalog", "remove", "Town"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let gone = try lectern.run(["catalog", "browse", "Town"])
        #expect(gone.status == 2)
        #expect(gone.stderr.contains("Town: no saved catalog of that name"))
        #expect(try lectern.run(["catalog", "remove", "Town"]).status == 2)
    }

    /// The password lives in the library database (mode 0600) and nowhere else: not in the
    /// configuration, not in any output.
    @Test func thePasswordIsKeptPrivately() throws {
        let server = try server()
        let added = try lectern.run(["catalog", "add", server.url("/catalog/root.xml"), "--name", "Mine",
                                     "--username", "reader", "--password", "s3cret-PIN"])
        #expect(added.status == 0, "\(added.stderr)")
        let list = try lectern.run(["catalog", "list", "--json"])
        let browse = try lectern.run(["catalog", "browse", "Mine"])
        for result in [added, list, browse] {
            #expect(!result.stdout.contains("s3cret-PIN") && !result.stderr.contains("s3cret-PIN"))
        }
        #expect((list.json as? [[String: Any]])?.first?["username"] as? String == "reader")
        let database = lectern.home + "/data/lectern/library.sqlite"
        var info = stat()
        #expect(stat(database, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let stored = (FileManager.default.contents(atPath: database) ?? Data())
            + (FileManager.default.contents(atPath: database + "-wal") ?? Data())
        #expect(stored.range(of: Data("s3cret-PIN".utf8)) != nil)
        let config = (try? String(contentsOfFile: lectern.home + "/config/lectern/config.toml", encoding: .utf8)) ?? ""
        #expect(!config.contains("s3cret-PIN"))
        // The catalog does not ask for a sign-in: nothing was sent with the requests.
        #expect(server.requests.allSatisfy { $0.headers["authorization"] == nil })
    }
}
