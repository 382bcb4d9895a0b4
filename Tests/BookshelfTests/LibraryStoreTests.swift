import Foundation
import Bookshelf
import Testing
import TestSupport

/// A library in a new temporary folder, with one publication.
private func libraryWithOneBook(_ label: String) throws -> (LibraryStore, LibraryEntry, String) {
    let path = Fixtures.temporaryDirectory(label) + "/library.sqlite"
    let store = try LibraryStore(path: path)
    let entry = try store.add(LibraryEntry(identity: "id:moby#1", path: "/books/moby.epub", title: "Moby-Dick", author: "Herman Melville"))
    return (store, entry, path)
}

@Suite struct LibraryBookmarkTests {
    /// Bookmarks come back in reading order whatever order they were added in, survive
    /// reopening the database, and one removed stays removed.
    @Test func bookmarksAreKeptInReadingOrder() throws {
        let (store, entry, path) = try libraryWithOneBook("bookmarks")
        let late = try store.addBookmark(Bookmark(locator: "{\"p\":0.9}", label: "The chase", progress: 0.9), publicationID: entry.id)
        let early = try store.addBookmark(Bookmark(locator: "{\"p\":0.1}", label: "Call me Ishmael", progress: 0.1), publicationID: entry.id)
        #expect(late != early)
        let reopened = try LibraryStore(path: path)
        let marks = try reopened.bookmarks(publicationID: entry.id)
        #expect(marks.map(\.label) == ["Call me Ishmael", "The chase"])
        #expect(marks.map(\.id) == [early, late])
        #expect(marks.first?.locator == "{\"p\":0.1}")
        try reopened.deleteBookmark(id: early)
        #expect(try store.bookmarks(publicationID: entry.id).map(\.label) == ["The chase"])
        // Another publication's bookmarks are its own.
        let other = try store.add(LibraryEntry(identity: "id:other#1", path: "/books/other.epub", title: "Other"))
        #expect(try store.bookmarks(publicationID: other.id).isEmpty)
    }

    /// Removing a publication removes its bookmarks with it.
    @Test func removingAPublicationRemovesItsBookmarks() throws {
        let (store, entry, _) = try libraryWithOneBook("bookmarks-delete")
        try store.addBookmark(Bookmark(locator: "{}", label: "Here", progress: 0.5), publicationID: entry.id)
        #expect(try store.delete(id: entry.id)?.title == "Moby-Dick")
        let again = try store.add(LibraryEntry(identity: "id:moby#1", path: "/books/moby.epub", title: "Moby-Dick"))
        #expect(try store.bookmarks(publicationID: again.id).isEmpty)
        #expect(try store.bookmarks(publicationID: entry.id).isEmpty)
    }
}

@Suite struct LibraryTextLengthTests {
    /// Text lengths are cached per content identity, replaced by a newer count, and unknown
    /// until counted (an empty book is cached as empty, not as unknown).
    @Test func textLengthsAreCachedPerIdentity() throws {
        let (store, _, path) = try libraryWithOneBook("lengths")
        #expect(try store.textLengths(identity: "id:moby#1") == nil)
        try store.setTextLengths([1200, 0, 45_000], identity: "id:moby#1")
        try store.setTextLengths([7], identity: "id:other#1")
        #expect(try LibraryStore(path: path).textLengths(identity: "id:moby#1") == [1200, 0, 45_000])
        try store.setTextLengths([1300, 10, 45_000], identity: "id:moby#1")
        #expect(try store.textLengths(identity: "id:moby#1") == [1300, 10, 45_000])
        #expect(try store.textLengths(identity: "id:other#1") == [7])
        try store.setTextLengths([], identity: "id:empty#1")
        #expect(try store.textLengths(identity: "id:empty#1") == [])
    }
}

@Suite struct LibraryPositionTests {
    /// A saved position is what the publication reopens at; a position saved without progress
    /// keeps the last progress; saving marks the book opened, which the recent order follows;
    /// re-importing the publication never resets its position.
    @Test func positionsAreKeptAndOrderTheRecentShelf() throws {
        let (store, moby, _) = try libraryWithOneBook("positions-store")
        let other = try store.add(LibraryEntry(identity: "id:other#1", path: "/books/other.epub", title: "Another Book"))
        #expect(moby.openedAt == nil && moby.locator == nil)
        try store.savePosition(id: other.id, locator: "{\"o\":1}", progress: 0.2)
        try store.savePosition(id: moby.id, locator: "{\"m\":1}", progress: 0.4)
        try store.savePosition(id: moby.id, locator: "{\"m\":2}", progress: nil)
        let saved = try #require(try store.entry(id: moby.id))
        #expect(saved.locator == "{\"m\":2}")
        #expect(saved.progress == 0.4)
        #expect(saved.openedAt != nil)
        #expect(try store.entries(sort: .recent).map(\.title) == ["Moby-Dick", "Another Book"])
        try store.markOpened(id: other.id)
        #expect(try store.entries(sort: .recent).map(\.title) == ["Another Book", "Moby-Dick"])
        try store.add(LibraryEntry(identity: "id:moby#1", path: "/moved/moby.epub", title: "Moby-Dick; or, The Whale"))
        let reimported = try #require(try store.entry(identity: "id:moby#1"))
        #expect(reimported.path == "/moved/moby.epub" && reimported.locator == "{\"m\":2}" && reimported.progress == 0.4)
    }
}
