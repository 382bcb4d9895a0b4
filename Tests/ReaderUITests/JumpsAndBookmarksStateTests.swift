import Bookshelf
@testable import ReaderUI
import Shared
import Terminal
import Testing

/// The jump list's steps and the bookmarks popup's keys, decided without a terminal.
@Suite struct JumpsAndBookmarksStateTests {
    static func place(_ progression: Double, title: String = "Loomings") -> JumpList.Place {
        JumpList.Place(locator: Locator(href: "c.xhtml", mediaType: .xhtml, locations: .init(totalProgression: progression)),
                       title: title)
    }

    @Test func steppingBackAndForwardSaysWhereToAndHowManyPlacesAreLeft() {
        var jumps = JumpList()
        jumps.record(Self.place(0.1))
        jumps.record(Self.place(0.25, title: ""))
        #expect(jumps.step(forward: false, from: Self.place(0.5), bookTitle: "Moby-Dick")
                == .go(to: Self.place(0.25, title: ""), message: "Back to “Moby-Dick” (25%) · 1 back · 1 ahead"))
        #expect(jumps.step(forward: false, from: Self.place(0.25, title: ""), bookTitle: "Moby-Dick")
                == .go(to: Self.place(0.1), message: "Back to “Loomings” (10%) · 0 back · 2 ahead"))
        guard case .stay(let message) = jumps.step(forward: false, from: Self.place(0.1), bookTitle: "Moby-Dick") else {
            Issue.record("went back past the first place")
            return
        }
        #expect(message.hasPrefix("No earlier place"))
        #expect(jumps.step(forward: true, from: Self.place(0.1), bookTitle: "Moby-Dick")
                == .go(to: Self.place(0.25, title: ""), message: "Forward to “Moby-Dick” (25%) · 1 back · 1 ahead"))
        #expect(jumps.step(forward: true, from: Self.place(0.25, title: ""), bookTitle: "Moby-Dick")
                == .go(to: Self.place(0.5), message: "Forward to “Loomings” (50%) · 2 back · 0 ahead"))
        guard case .stay(let ahead) = jumps.step(forward: true, from: Self.place(0.5), bookTitle: "Moby-Dick") else {
            Issue.record("went forward past the last place")
            return
        }
        #expect(ahead.hasPrefix("Nothing ahead"))
    }

    /// A chapter title from the book is shown without its control or bidi characters.
    @Test func aHostileChapterTitleIsShownSafely() {
        var jumps = JumpList()
        jumps.record(Self.place(0.1, title: "Evil\u{1B}[2J\u{202E}title"))
        guard case .go(_, let message) = jumps.step(forward: false, from: Self.place(0.2), bookTitle: "") else {
            Issue.record("no place to go back to")
            return
        }
        #expect(!message.contains("\u{1B}") && !message.contains("\u{202E}"))
    }

    static func bookmark(_ id: Int64, progression: Double) -> Bookmark {
        let locator = Locator(href: "c\(id).xhtml", mediaType: .xhtml, locations: .init(progression: progression))
        return Bookmark(id: id, locator: locator.jsonString, label: "Mark \(id)", progress: progression)
    }

    @Test func bookmarkKeysMoveJumpDeleteAndClose() {
        let marks = [Self.bookmark(1, progression: 0.1), Self.bookmark(2, progression: 0.5), Self.bookmark(3, progression: 0.9)]
        var state = BookmarksState(bookmarks: marks)
        #expect(state.handle(.character("j")) == .stay)
        #expect(state.selected?.id == 2)
        #expect(state.handle(.character("d")) == .delete(marks[1]))
        #expect(state.bookmarks.map(\.id) == [1, 3])
        #expect(state.selected?.id == 3)
        let expected = Locator(jsonString: marks[2].locator)!
        #expect(state.handle(.enter) == .jump(to: expected))
        #expect(expected.href == "c3.xhtml")
        for key in [Key.escape, .character("q"), .character("'")] {
            var copy = state
            #expect(copy.handle(key) == .close)
        }
    }

    @Test func anEmptyListStaysOpenAndDeletesNothing() {
        var state = BookmarksState(bookmarks: [])
        #expect(state.handle(.delete) == .stay)
        #expect(state.handle(.enter) == .stay)
        #expect(state.handle(.character("'")) == .close)
    }

    @Test func aBookmarkWhoseLocatorCannotBeReadClosesWithoutGoingAnywhere() {
        var state = BookmarksState(bookmarks: [Bookmark(id: 9, locator: "{not json", label: "Broken")])
        #expect(state.handle(.enter) == .close)
    }

    @Test func aNewBookmarkIsLabelledWithTheChapterAndThePagesFirstWords() {
        let locator = Locator(href: "c1.xhtml", mediaType: .xhtml, locations: .init(progression: 0.3),
                              text: .init(highlight: "Call me Ishmael. "))
        let bookmark = BookmarksState.bookmark(at: locator, chapterTitle: "Loomings", progress: 0.02)
        #expect(bookmark.label == "Loomings: Call me Ishmael.")
        #expect(bookmark.progress == 0.02)
        #expect(Locator(jsonString: bookmark.locator) == locator)
        let untitled = BookmarksState.bookmark(at: locator, chapterTitle: "", progress: nil)
        #expect(untitled.label == "Call me Ishmael.")
    }
}
