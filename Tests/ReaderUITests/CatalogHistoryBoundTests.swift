import Bookshelf
import Foundation
import OPDS
import ReaderUI
import Terminal
import Testing

/// The Catalogs view keeps only the last feeds of its stack in memory: following `next` page
/// after page does not pile them up, and Backspace fetches a dropped feed again, its selection
/// where it was (issue #27 item 11).
@Suite struct CatalogHistoryBoundTests {
    static let base = "http://127.0.0.1:9/catalog/"
    static let catalog = SavedCatalog(name: "Test", url: base + "page1.json")

    /// Page `number` of an endless catalog: three publications and a `next` page.
    static func page(_ number: Int) throws -> OPDSFeed {
        let publications = (1...3).map { index in
            #"{"metadata": {"title": "Book \#(number).\#(index)"}, "links": [{"rel": "http://opds-spec.org/acquisition/open-access", "href": "/b\#(number)-\#(index).epub", "type": "application/epub+zip"}]}"#
        }
        let json = """
            {"metadata": {"title": "Page \(number)"}, "links": [{"rel": "next", "href": "page\(number + 1).json", "type": "application/opds+json"}],
             "publications": [\(publications.joined(separator: ","))]}
            """
        return try OPDSParser.parse([UInt8](json.utf8), url: base + "page\(number).json")
    }

    static func url(_ effect: CatalogBrowserState.Effect) -> (String, Int)? {
        if case .load(let request) = effect, case .feed(let url) = request.kind { return (url, request.generation) }
        return nil
    }

    static func title(_ state: CatalogBrowserState) -> String? {
        if case .feed(let screen)? = state.current { return screen.feed.metadata.title }
        return nil
    }

    /// The catalog opened and `pages` pages followed with `n`, the second publication of each selected.
    static func paged(_ pages: Int) throws -> CatalogBrowserState {
        var state = CatalogBrowserState()
        state.setCatalogs([catalog])
        let first = try #require(url(state.handle(.enter)))
        state.loaded(try page(1), generation: first.1)
        for number in 2...pages {
            _ = state.handle(.down)
            let next = try #require(url(state.handle(.character("n"))))
            #expect(next.0 == base + "page\(number).json")
            state.loaded(try page(number), generation: next.1)
        }
        return state
    }

    @Test func pagingOnKeepsABoundedStackAndBackFetchesDroppedFeedsAgain() throws {
        let pages = 30
        var state = try Self.paged(pages)
        #expect(Self.title(state) == "Page \(pages)")
        let kept = state.stack.count
        #expect(kept <= CatalogBrowserState.keptFeeds && kept < pages, "\(kept) feeds kept of \(pages)")

        // Back through the kept feeds without a request, then each dropped one fetched again.
        var refetched = 0
        for number in stride(from: pages - 1, through: 1, by: -1) {
            let effect = state.handle(.backspace)
            if let (url, generation) = Self.url(effect) {
                refetched += 1
                #expect(url == Self.base + "page\(number).json")
                #expect(state.loading != nil)
                state.loaded(try Self.page(number), generation: generation)
            }
            #expect(Self.title(state) == "Page \(number)")
            guard case .feed(let screen)? = state.current else { Issue.record("no feed on page \(number)"); return }
            #expect(screen.list.selection == 1, "page \(number) keeps its selection")
            #expect(state.stack.count <= kept)
        }
        #expect(refetched == pages - kept)
        _ = state.handle(.backspace)
        #expect(state.current == nil && state.catalog == nil)
    }

    @Test func cancellingTheFetchOfADroppedFeedGoesBackToTheCatalogs() throws {
        let pages = 12
        var state = try Self.paged(pages)
        var refetch: (String, Int)?
        for _ in 1..<pages where refetch == nil { refetch = Self.url(state.handle(.backspace)) }
        let dropped = try #require(refetch, "Backspace never fetched a dropped feed again")
        _ = state.handle(.escape)
        state.loaded(try Self.page(1), generation: dropped.1)
        #expect(state.current == nil && state.catalog == nil && state.loading == nil)
        // Opening a catalog again starts afresh.
        let again = try #require(Self.url(state.handle(.enter)))
        state.loaded(try Self.page(1), generation: again.1)
        #expect(state.stack.count == 1)
        _ = state.handle(.backspace)
        #expect(state.current == nil && state.catalog == nil)
    }
}
