import Bookshelf
import ReaderUI
import Shared
import Terminal
import Testing

/// Naming a bookmark in the list (`r`), and the list's lines: the name and the words at the
/// place (#29 item 13).
@Suite struct BookmarkNamingStateTests {
    static func bookmark(_ id: Int64, label: String, words: String?) -> Bookmark {
        let locator = Locator(href: "c1.xhtml", mediaType: .xhtml, locations: .init(progression: 0.5),
                              text: .init(highlight: words))
        return Bookmark(id: id, locator: locator.jsonString, label: label, progress: 0.25)
    }

    static func type(_ text: String, into state: inout BookmarksState) {
        for character in text { #expect(state.handle(.character(character)) == .stay) }
    }

    @Test func rNamesTheSelectedBookmarkAndEnterKeepsTheName() {
        var state = BookmarksState(bookmarks: [Self.bookmark(1, label: "Loomings", words: nil), Self.bookmark(2, label: "Chase", words: nil)])
        #expect(state.handle(.character("j")) == .stay)
        #expect(state.handle(.character("r")) == .stay)
        #expect(state.naming?.string == "Chase")
        // Typing goes to the name: `d` and `q` neither delete nor close.
        #expect(state.handle(.control("u")) == .stay)
        Self.type("dq whale", into: &state)
        // The same bookmark (its id, its sync id, its dates), named anew.
        var named = state.bookmarks[1]
        named.label = "dq whale"
        #expect(state.handle(.enter) == .rename(named))
        #expect(state.naming == nil)
        #expect(state.bookmarks.map(\.label) == ["Loomings", "dq whale"])
        #expect(state.bookmarks.count == 2)
    }

    @Test func escapeOrAnEmptyNameKeepsTheOldName() {
        var state = BookmarksState(bookmarks: [Self.bookmark(1, label: "Loomings", words: nil)])
        #expect(state.handle(.character("r")) == .stay)
        Self.type("x", into: &state)
        #expect(state.handle(.escape) == .stay)
        #expect(state.naming == nil && state.bookmarks[0].label == "Loomings")
        #expect(state.handle(.character("r")) == .stay)
        #expect(state.handle(.control("u")) == .stay)
        #expect(state.handle(.enter) == .stay)
        #expect(state.bookmarks[0].label == "Loomings")
        // Not naming any more: Escape closes again.
        #expect(state.handle(.escape) == .close)
    }

    /// A named bookmark is listed with the words at its place; one labelled with them is not
    /// listed with them twice; a protected book's (no words stored) shows its name only; and
    /// what a name or the words hold is shown on one line without terminal controls.
    @Test func theListShowsTheNameAndTheWordsAtThePlace() {
        #expect(BookmarksState.line(for: Self.bookmark(1, label: "The whale", words: "Call me Ishmael.")) == "25% The whale — “Call me Ishmael.”")
        #expect(BookmarksState.line(for: Self.bookmark(1, label: "Loomings: Call me Ishmael.", words: "Call me Ishmael.")) == "25% Loomings: Call me Ishmael.")
        #expect(BookmarksState.line(for: Self.bookmark(1, label: "Loomings · 40% into it", words: nil)) == "25% Loomings · 40% into it")
        let hostile = BookmarksState.line(for: Self.bookmark(1, label: "a\u{1B}[2Jb\nc", words: "x\u{202E}y"))
        #expect(!hostile.contains("\u{1B}") && !hostile.contains("\n") && !hostile.contains("\u{202E}"))
    }
}
