import Foundation
import Testing
import TestSupport

/// Bookmarks in tmux (#29 item 13): `m` twice on a page says the page is already bookmarked
/// and keeps one bookmark; `r` in the list names one, which is listed with the words at its place.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct BookmarkNamingUITests {
    @Test func mTwiceKeepsOneBookmarkAndRNamesIt() throws {
        let tmux = try TmuxSession(width: 100, height: 24, arguments: ["open", UIFixtures.sample("idpf-wasteland.epub")],
                                   home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitForAll("April is the cruellest month", "p. 1/")
        try tmux.press("m")
        try tmux.waitFor("Bookmark added")
        try tmux.press("m")
        try tmux.waitFor("already bookmarked")
        try tmux.press("'")
        try tmux.waitFor("Bookmarks")
        try tmux.press("r")
        try tmux.waitFor("Name: ")
        try tmux.press("C-u")
        try tmux.type("Burial")
        try tmux.press("Enter")
        // One line only: the named bookmark, with the words at its place; no second line.
        let screen = try tmux.waitUntil("the named bookmark with its words") { screen in
            screen.contains("% Burial — “") && !screen.contains("Name: ")
        }
        #expect(screen.components(separatedBy: "% Burial").count == 2)
        // The popup's rows (the status line, drawn outside the box, may or may not show a percentage).
        let rows = screen.split(separator: "\n").filter { $0.contains("│") && $0.contains("% ") }
        #expect(rows.count == 1, "one bookmark line in the list:\n\(screen)")
        // Closing and reopening the list reads the name back from the library.
        try tmux.press("Escape")
        try tmux.waitForAbsence(of: "% Burial")
        try tmux.press("'")
        try tmux.waitFor("% Burial — “")
    }
}
