import Bookshelf
@testable import ReaderUI
import Shared
import Testing

/// What of a place the library may hold: a protected book's words never, an unprotected
/// book's text around the place always (it finds the place again).
@Suite struct StoredPlaceTests {
    static let locator = Locator(href: "EPUB/chapter.xhtml", mediaType: .xhtml, title: nil,
                                 locations: Locator.Locations(fragments: ["part-2"], progression: 0.4, totalProgression: 0.25),
                                 text: Locator.Text(before: "Call me ", highlight: "Ishmael. Some years ago"))

    @Test func aProtectedBooksLocatorKeepsItsPlaceWithoutItsWords() {
        let stored = StoredPlace.locator(Self.locator, protected: true)
        #expect(stored.text == Locator.Text())
        #expect(stored.href == "EPUB/chapter.xhtml")
        #expect(stored.locations == Self.locator.locations)
        #expect(!stored.jsonString.contains("Ishmael"))
        #expect(!stored.jsonString.contains("Call me"))
    }

    @Test func anUnprotectedBooksLocatorKeepsItsText() {
        #expect(StoredPlace.locator(Self.locator, protected: false) == Self.locator)
    }

    @Test func aProtectedBookmarkIsLabelledFromTheContents() {
        let bookmark = BookmarksState.protectedBookmark(at: Self.locator, chapterTitle: "Loomings", chapterProgression: 0.4, progress: 0.25)
        #expect(bookmark.label == "Loomings · 40% into it")
        #expect(!bookmark.locator.contains("Ishmael"))
        #expect(Locator(jsonString: bookmark.locator)?.locations.progression == 0.4)
        // A PDF page: its title says where it is.
        let page = BookmarksState.protectedBookmark(at: Self.locator, chapterTitle: "Page 3 of 10", chapterProgression: nil, progress: 0.3)
        #expect(page.label == "Page 3 of 10")
        #expect(BookmarksState.protectedBookmark(at: Self.locator, chapterTitle: " ", chapterProgression: nil, progress: nil).label == "Bookmark")
    }
}
