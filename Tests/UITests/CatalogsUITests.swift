import Foundation
import Testing
import TestSupport

/// The bookshelf's Catalogs view (`c`) against OPDS feeds served on loopback: pick the saved
/// catalog, follow a navigation entry, open a publication, download it, see it on the shelf.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct CatalogsUITests {
    static func fixture(_ name: String) -> Data { Fixtures.bytes(Fixtures.path("opds/" + name)) }

    static func routes(authorization: [String]? = nil) -> [TestHTTPRoute] {
        var routes = [
            TestHTTPRoute("/catalog/root.xml", headers: ["Content-Type": "application/atom+xml"], body: fixture("lectern_opds1_navigation.xml")),
            TestHTTPRoute("/catalog/new.xml", headers: ["Content-Type": "application/atom+xml"], body: fixture("lectern_opds1_acquisition.xml")),
            // A server that never answers: the view must stay responsive and Escape cancel.
            TestHTTPRoute("/catalog/popular.xml", behaviour: .hang),
            TestHTTPRoute("/files/open.epub", headers: ["Content-Type": "application/epub+zip"],
                          bodyFile: Fixtures.sample("epub/idpf-wasteland.epub")),
        ]
        if let authorization {
            for index in routes.indices {
                routes[index].authorization = authorization
                routes[index].refusal = (401, ["WWW-Authenticate": "Basic realm=\"members\""], Data())
            }
        }
        return routes
    }

    @Test func browsesACatalogDownloadsABookAndShowsItOnTheShelf() throws {
        let server = try TestHTTPServer(routes: Self.routes())
        let home = try UIFixtures.home()
        let add = try LecternProcess(home: home).run(["catalog", "add", server.url("/catalog/root.xml"), "--name", "Loopback Library"])
        #expect(add.status == 0, "\(add.stderr)")
        let tmux = try TmuxSession(width: 100, height: 24, arguments: [], home: home)
        defer { tmux.close() }
        try tmux.waitFor("The library is empty")
        try tmux.press("c")
        try tmux.waitFor("Loopback Library")
        try tmux.press("Enter")
        try tmux.waitForAll("→ New arrivals (9)", "→ Popular", "Test Library")
        // A slow feed: "loading…" is shown and Escape cancels it.
        try tmux.press("j", "Enter")
        try tmux.waitFor("loading Popular…")
        try tmux.press("Escape")
        try tmux.waitFor("Cancelled.")
        try tmux.press("k", "Enter")
        try tmux.waitForAll("A Borrowed Book — Ada Writer, Bo Coauthor", "Open Book", "⋄ Sort: Title (shown)")
        // The details of the LCP book: its summary and its actions.
        try tmux.press("Enter")
        try tmux.waitForAll("A book lent as an LCP license.", "borrow (LCP) — borrow: EPUB (LCP) — available until",
                            "open the sample — sample: EPUB")
        try tmux.press("BSpace", "j", "j", "Enter")
        try tmux.waitFor("download — open-access: EPUB")
        try tmux.press("Enter")
        try tmux.waitUntil(timeout: 60, "the book added") { $0.contains("Added \"The Waste Land\" to the bookshelf") }
        try tmux.press("q")
        try tmux.waitUntil(timeout: 30, "the shelf with the book") { screen in
            screen.contains("The Waste Land") && screen.contains("1 publication")
        }
        let list = try LecternProcess(home: home).run(["list", "--json"])
        #expect(list.stdout.contains("The Waste Land"), "\(list.stdout)")
    }

    /// The server gone, the catalog's root is shown from the copy kept at the last visit, and
    /// the view says so with its date (#29 item 19).
    @Test func aKeptCopyIsSaidToBeOne() throws {
        let server = try TestHTTPServer(routes: Self.routes())
        let home = try UIFixtures.home()
        let add = try LecternProcess(home: home).run(["catalog", "add", server.url("/catalog/root.xml"), "--name", "Loopback Library"])
        #expect(add.status == 0, "\(add.stderr)")
        let tmux = try TmuxSession(width: 120, height: 24, arguments: [], home: home)
        defer { tmux.close() }
        try tmux.waitFor("The library is empty")
        try tmux.press("c")
        try tmux.waitFor("Loopback Library")
        try tmux.press("Enter")
        let fresh = try tmux.waitForAll("→ New arrivals (9)", "Test Library")
        #expect(!fresh.contains("copy kept"))
        try tmux.press("BSpace")
        try tmux.waitForAbsence(of: "→ New arrivals (9)")
        server.stop()
        try tmux.press("Enter")
        try tmux.waitForAll("→ New arrivals (9)", "The catalog could not be reached: this is the copy kept on")
    }

    @Test func aSignedInCatalogUsesItsStoredCredentials() throws {
        let credentials = "Basic " + Data("card-77:hunter2".utf8).base64EncodedString()
        let server = try TestHTTPServer(routes: Self.routes(authorization: [credentials]))
        let home = try UIFixtures.home()
        let add = try LecternProcess(home: home).run(["catalog", "add", server.url("/catalog/root.xml"), "--name", "club",
                                                      "--username", "card-77", "--password", "hunter2"])
        #expect(add.status == 0, "\(add.stderr)")
        let tmux = try TmuxSession(width: 100, height: 24, arguments: [], home: home)
        defer { tmux.close() }
        try tmux.waitFor("The library is empty")
        try tmux.press("c")
        try tmux.waitFor("(as card-77)")
        try tmux.press("Enter")
        let screen = try tmux.waitFor("→ New arrivals")
        #expect(!screen.contains("hunter2"))
        #expect(server.requests.contains { $0.path == "/catalog/root.xml" && $0.headers["authorization"] == credentials })
    }
}
