import Bookshelf
import Foundation
import OPDS
import ReaderUI
import Terminal
import Testing
import TestSupport

/// The Catalogs view's state machine on the OPDS fixtures the CLI tests serve: keys give
/// screens and effects, loads answered late or after Escape are dropped.
@Suite struct CatalogBrowserStateTests {
    static let base = "http://127.0.0.1:9/catalog/"
    static let catalog = SavedCatalog(name: "Test", url: base + "root.xml")

    static func feed(_ name: String, url: String) throws -> OPDSFeed {
        try OPDSParser.parse([UInt8](Fixtures.bytes(Fixtures.path("opds/" + name))), url: url)
    }

    /// A state showing the catalog list with one catalog.
    static func started() -> CatalogBrowserState {
        var state = CatalogBrowserState()
        state.setCatalogs([catalog, SavedCatalog(name: "Other", url: "http://127.0.0.1:9/other.xml")])
        return state
    }

    static func request(_ effect: CatalogBrowserState.Effect) -> CatalogRequest? {
        if case .load(let request) = effect { return request }
        return nil
    }

    static func url(_ request: CatalogRequest?) -> String? {
        if case .feed(let url)? = request?.kind { return url }
        return nil
    }

    /// Opened the catalog and its root (navigation) feed, then the acquisition feed.
    static func inAcquisitionFeed() throws -> CatalogBrowserState {
        var state = started()
        let root = try #require(request(state.handle(.enter)))
        state.loaded(try feed("lectern_opds1_navigation.xml", url: base + "root.xml"), generation: root.generation)
        let next = try #require(request(state.handle(.enter)))
        state.loaded(try feed("lectern_opds1_acquisition.xml", url: base + "new.xml?page=2"), generation: next.generation)
        return state
    }

    @Test func enterOnACatalogLoadsItsFeedAndShowsItsEntries() throws {
        var state = Self.started()
        let request = try #require(Self.request(state.handle(.enter)))
        #expect(Self.url(request) == Self.base + "root.xml")
        #expect(request.catalog.name == "Test")
        #expect(state.loading != nil)
        // Keys other than Escape do nothing while loading.
        #expect(Self.request(state.handle(.enter)) == nil)
        state.loaded(try Self.feed("lectern_opds1_navigation.xml", url: Self.base + "root.xml"), generation: request.generation)
        #expect(state.loading == nil)
        guard case .feed(let screen)? = state.current else { Issue.record("no feed shown"); return }
        #expect(screen.rows.count == 2)
        guard case .navigation(let first)? = screen.selectedRow else { Issue.record("not a navigation row"); return }
        #expect(first.title == "New arrivals")
    }

    @Test func enterFollowsNavigationAndBackspaceGoesBack() throws {
        var state = Self.started()
        let root = try #require(Self.request(state.handle(.enter)))
        state.loaded(try Self.feed("lectern_opds1_navigation.xml", url: Self.base + "root.xml"), generation: root.generation)
        _ = state.handle(.down)
        let popular = try #require(Self.request(state.handle(.enter)))
        #expect(Self.url(popular) == Self.base + "popular.xml")
        state.loaded(try Self.feed("lectern_opds1_acquisition.xml", url: Self.base + "popular.xml"), generation: popular.generation)
        #expect(state.stack.count == 2)
        _ = state.handle(.backspace)
        guard case .feed(let screen)? = state.current else { Issue.record("not back on the root"); return }
        #expect(screen.list.selection == 1, "the selection stays where it was")
        _ = state.handle(.backspace)
        #expect(state.current == nil && state.catalog == nil)
        guard case .close = state.handle(.backspace) else { Issue.record("backspace on the list should close"); return }
    }

    @Test func escapeCancelsALoadAndItsLateAnswerIsDropped() throws {
        var state = Self.started()
        let request = try #require(Self.request(state.handle(.enter)))
        _ = state.handle(.escape)
        #expect(state.loading == nil)
        #expect(state.message == "Cancelled.")
        state.loaded(try Self.feed("lectern_opds1_navigation.xml", url: Self.base + "root.xml"), generation: request.generation)
        #expect(state.current == nil, "a cancelled load shows nothing")
        // A new load is answered; an older answer still is not.
        let again = try #require(Self.request(state.handle(.enter)))
        state.failed("old", generation: request.generation)
        #expect(state.loading != nil)
        state.failed("the server answered HTTP 500", generation: again.generation)
        #expect(state.message == "the server answered HTTP 500")
        #expect(state.current == nil)
    }

    @Test func pagesSearchAndFacets() throws {
        var state = try Self.inAcquisitionFeed()
        let next = try #require(Self.request(state.handle(.character("n"))))
        #expect(Self.url(next) == Self.base + "new.xml?page=3")
        _ = state.handle(.escape)
        let previous = try #require(Self.request(state.handle(.character("p"))))
        #expect(Self.url(previous) == Self.base + "new.xml?page=1")
        _ = state.handle(.escape)
        #expect(state.handle(.character("/")) .isNone)
        #expect(state.searchField != nil)
        for character in "cats" { _ = state.handle(.character(character)) }
        let search = try #require(Self.request(state.handle(.enter)))
        guard case .search(let feed, let terms) = search.kind else { Issue.record("not a search"); return }
        #expect(terms == "cats")
        #expect(feed.metadata.title == "New arrivals")
        _ = state.handle(.escape)
        // The facets come after the three publications.
        guard case .feed(let screen)? = state.current else { Issue.record("no feed"); return }
        #expect(screen.rows.count == 6)
        _ = state.handle(.end)
        let facet = try #require(Self.request(state.handle(.enter)))
        #expect(Self.url(facet) == Self.base + "new.xml?lang=fr")
    }

    @Test func noNextPageOrSearchSaysSo() throws {
        var state = Self.started()
        let root = try #require(Self.request(state.handle(.enter)))
        var feed = try Self.feed("lectern_opds1_navigation.xml", url: Self.base + "root.xml")
        feed.links.removeAll { $0.hasRel(OPDSRel.search) }
        state.loaded(feed, generation: root.generation)
        #expect(Self.request(state.handle(.character("n"))) == nil)
        #expect(state.message == "This is the last page.")
        _ = state.handle(.character("/"))
        #expect(state.searchField == nil)
        #expect(state.message == "This catalog offers no search here.")
    }

    @Test func aPublicationShowsItsActionsAndEnterAcquires() throws {
        var state = try Self.inAcquisitionFeed()
        _ = state.handle(.enter)
        guard case .publication(let borrowed)? = state.current else { Issue.record("no details"); return }
        #expect(borrowed.publication.metadata.title == "A Borrowed Book")
        #expect(borrowed.actions.map(CatalogPublicationScreen.verb) == ["borrow (LCP)", "open the sample"])
        guard case .acquire(let catalog, _, let link) = state.handle(.enter) else { Issue.record("no acquisition"); return }
        #expect(catalog.name == "Test")
        #expect(link.hasRel(OPDSRel.borrow))
        _ = state.handle(.down)
        guard case .acquire(_, _, let sample) = state.handle(.enter) else { Issue.record("no sample"); return }
        #expect(sample.hasRel(OPDSRel.sample))
        // The Adobe-only book is refused with a message.
        _ = state.handle(.backspace)
        _ = state.handle(.down)
        _ = state.handle(.enter)
        #expect(state.handle(.enter).isNone)
        #expect(state.message?.contains("Adobe DRM") == true)
    }

    @Test func qClosesFromAnyScreen() throws {
        var state = try Self.inAcquisitionFeed()
        guard case .close = state.handle(.character("q")) else { Issue.record("q should close"); return }
    }
}

extension CatalogBrowserState.Effect {
    var isNone: Bool { if case .none = self { return true }; return false }
}
