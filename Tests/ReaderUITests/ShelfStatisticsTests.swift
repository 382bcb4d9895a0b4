import Bookshelf
import ReaderUI
import Terminal
import Testing

/// `I` on the bookshelf tells the selected book's reading statistics on the status line, in a
/// window of any width (the cover panel, which also shows them, needs 120 columns).
@Suite struct ShelfStatisticsTests {
    func shelf() -> ShelfState {
        var shelf = ShelfState(sort: .title)
        shelf.setEntries([LibraryEntry(identity: "read", path: "/a.epub", title: "Emma", author: "Jane Austen"),
                          LibraryEntry(identity: "new", path: "/b.epub", title: "Moby-Dick", author: "Herman Melville")],
                         loans: [:])
        shelf.statistics = ["read": BookReadingStatistics(seconds: 7_800, sessions: 3, pages: 37, characters: 60_000)]
        return shelf
    }

    @Test func aBookReadTellsItsTimeSessionsAndPages() {
        var shelf = shelf()
        _ = shelf.handle(.character("I"))
        #expect(shelf.message == "\"Emma\": read 2 h 10 in 3 sessions · 12 pages a session")
    }

    @Test func aBookNotReadSaysSo() {
        var shelf = shelf()
        _ = shelf.handle(.down)
        _ = shelf.handle(.character("I"))
        #expect(shelf.message == "\"Moby-Dick\": not read in Lectern yet.")
    }
}
