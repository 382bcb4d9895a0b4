import Foundation
import Bookshelf
import Shared
import Testing
import TestSupport

/// `m` twice on a page keeps one bookmark, and a bookmark can be renamed (#29 item 13).
@Suite struct BookmarkPlaceTests {
    static func store(_ label: String) throws -> (LibraryStore, Int64, String) {
        let path = Fixtures.temporaryDirectory(label) + "/library.sqlite"
        let store = try LibraryStore(path: path)
        let entry = try store.add(LibraryEntry(identity: "id:moby#1", path: "/books/moby.epub", title: "Moby-Dick"))
        return (store, entry.id, path)
    }

    static func page(_ progression: Double, words: String? = nil) -> Locator {
        Locator(href: "c1.xhtml", mediaType: .xhtml, locations: .init(progression: progression),
                text: .init(highlight: words))
    }

    /// A second bookmark at the same place is not added, whatever its label or words (a
    /// protected book's bookmark has none); another page of the chapter, or another chapter,
    /// is.
    @Test func aPlaceAlreadyBookmarkedIsNotBookmarkedTwice() throws {
        let (store, id, path) = try Self.store("bookmark-twice")
        let first = Bookmark(locator: Self.page(1.0 / 3, words: "Call me Ishmael.").jsonString, label: "Loomings: Call me Ishmael.", progress: 0.02)
        guard case .added(let rowID) = try store.addBookmarkUnlessPresent(first, publicationID: id) else {
            Issue.record("the first bookmark was not added")
            return
        }
        let again = Bookmark(locator: Self.page(1.0 / 3).jsonString, label: "Loomings", progress: 0.02)
        guard case .alreadyThere(let existing) = try LibraryStore(path: path).addBookmarkUnlessPresent(again, publicationID: id) else {
            Issue.record("the same page was bookmarked twice")
            return
        }
        #expect(existing.id == rowID && existing.label == "Loomings: Call me Ishmael.")
        let nextPage = Bookmark(locator: Self.page(0.4).jsonString, label: "Loomings", progress: 0.03)
        var otherChapter = Self.page(1.0 / 3)
        otherChapter.href = "c2.xhtml"
        for bookmark in [nextPage, Bookmark(locator: otherChapter.jsonString, label: "The Carpet-Bag")] {
            guard case .added = try store.addBookmarkUnlessPresent(bookmark, publicationID: id) else {
                Issue.record("another place was taken for the first one")
                return
            }
        }
        #expect(try store.bookmarks(publicationID: id).count == 3)
    }

    /// The same place with another nearest id (two ids at one offset), or with its position
    /// known to one of the two only (before the count), is still the same place; two known
    /// positions that differ are two places.
    @Test func theSamePlaceNamedOtherwiseIsStillBookmarked() throws {
        let (store, id, _) = try Self.store("bookmark-same-place")
        func add(_ locator: Locator) throws -> Bool {
            if case .added = try store.addBookmarkUnlessPresent(Bookmark(locator: locator.jsonString, label: "a"), publicationID: id) { return true }
            return false
        }
        var first = Self.page(0.25)
        first.locations.fragments = ["frontmatter"]
        #expect(try add(first))
        var second = Self.page(0.25)
        second.locations.fragments = ["titlepage"]
        second.locations.position = 3
        #expect(try !add(second), "the same progression was bookmarked twice")
        var paged = Self.page(0.5)
        paged.locations.position = 3
        #expect(try add(paged))
        paged.locations.position = 4
        #expect(try add(paged), "two positions were taken for one place")
        #expect(try store.bookmarks(publicationID: id).count == 3)
    }

    /// `m` on the first part of a long chapter, before its length is known, stores no
    /// progression; `m` again once the whole chapter replaced it finds that bookmark by its
    /// words (CI saw two bookmarks for one page under load).
    @Test func aPlaceBookmarkedBeforeTheChapterWasWholeIsFoundByItsWords() throws {
        let (store, id, _) = try Self.store("bookmark-first-part")
        var early = Locator(href: "c1.xhtml", mediaType: .xhtml, locations: .init(fragments: ["titlepage"]),
                            text: .init(highlight: "The Waste Land"))
        #expect(try store.addBookmarkUnlessPresent(Bookmark(locator: early.jsonString, label: "a"), publicationID: id).isAdded)
        var whole = early
        whole.locations.progression = 0
        #expect(try !store.addBookmarkUnlessPresent(Bookmark(locator: whole.jsonString, label: "a"), publicationID: id).isAdded)
        // Other words under the same id: another page.
        early.text = .init(highlight: "April is the cruellest month")
        #expect(try store.addBookmarkUnlessPresent(Bookmark(locator: early.jsonString, label: "b"), publicationID: id).isAdded)
    }

    @Test func aRenamedBookmarkKeepsItsNameAcrossReopening() throws {
        let (store, id, path) = try Self.store("bookmark-rename")
        let rowID = try store.addBookmark(Bookmark(locator: Self.page(0.5).jsonString, label: "Loomings", progress: 0.5), publicationID: id)
        try store.renameBookmark(id: rowID, label: "Where the whale appears")
        #expect(try LibraryStore(path: path).bookmarks(publicationID: id).map(\.label) == ["Where the whale appears"])
    }
}

extension BookmarkAddition {
    var isAdded: Bool {
        if case .added = self { return true }
        return false
    }
}
