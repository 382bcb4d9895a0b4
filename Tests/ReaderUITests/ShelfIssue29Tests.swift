import Foundation
import Bookshelf
import ReaderUI
import Terminal
import Testing

/// The bookshelf's filter and statistics wording (#29 item 14).
@Suite struct ShelfIssue29Tests {
    /// The list shows the file's name beside titles other books share: typing it finds the book.
    @Test func filterMatchesTheFileNameTheListShows() {
        var shelf = ShelfState(sort: .title)
        let first = LibraryEntry(id: 1, identity: "a", path: "/books/moby-dick.epub", title: "Moby-Dick", author: "Herman Melville")
        let second = LibraryEntry(id: 2, identity: "b", path: "/books/whale-illustrated.epub", title: "Moby-Dick", author: "Herman Melville")
        shelf.setEntries([first, second], loans: [:])
        #expect(shelf.displayTitle(of: second) == "Moby-Dick (whale-illustrated.epub)")
        _ = shelf.handle(.character("/"))
        for character in "illustrated" { _ = shelf.handle(.character(character)) }
        #expect(shelf.visible.map { shelf.entries[$0].identity } == ["b"])
    }

    @Test func oneSessionAndOnePageAreSingular() {
        var shelf = ShelfState(sort: .title)
        shelf.setEntries([LibraryEntry(identity: "read", path: "/a.epub", title: "Emma", author: "Jane Austen")], loans: [:])
        shelf.statistics = ["read": BookReadingStatistics(seconds: 600, sessions: 1, pages: 1, characters: 900)]
        _ = shelf.handle(.character("I"))
        #expect(shelf.message == "\"Emma\": read 10 min in 1 session · 1 page a session")
    }

    /// `C` on the shelf continues the book opened last, wherever the selection is; a missing
    /// file is passed over; before any book was opened it says so (#29 item 20).
    @Test func cContinuesTheBookOpenedLast() {
        var shelf = ShelfState(sort: .title)
        if case .open = shelf.handle(.character("C")) { Issue.record("C opened a book on an empty shelf") }
        #expect(shelf.message == "No book has been opened yet.")
        let now = Date()
        let older = LibraryEntry(id: 1, identity: "a", path: "/books/a.epub", title: "Alpha", openedAt: now.addingTimeInterval(-3_600))
        let last = LibraryEntry(id: 2, identity: "b", path: "/books/b.epub", title: "Beta", openedAt: now.addingTimeInterval(-60))
        let never = LibraryEntry(id: 3, identity: "c", path: "/books/c.epub", title: "Gamma")
        shelf.setEntries([older, last, never], loans: [:])
        guard case .open(let opened) = shelf.handle(.character("C")) else {
            Issue.record("C opened nothing")
            return
        }
        #expect(opened.id == 2)
    }
}
