import Foundation
import Testing
import TestSupport

/// The time left from the reading pace on the status line, and the book's reading statistics
/// on the bookshelf's cover panel after a session.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct ReadingTimeUITests {
    @Test func timeLeftWhileReadingAndStatisticsOnTheShelf() throws {
        let home = try UIFixtures.home(importing: [UIFixtures.sample("idpf-wasteland.epub")])
        let tmux = try TmuxSession(width: 130, height: 34, arguments: [], home: home)
        defer { tmux.close() }
        try tmux.waitFor("The Waste Land")
        try tmux.press("Enter")
        try tmux.waitForAll("April is the cruellest month", "p. 1/")
        // The default pace until the person's own is known; the book once its chapters are counted.
        try tmux.waitUntil("the time left") { screen in
            screen.split(separator: "\n").last.map { $0.contains(" left in chapter · ") && $0.contains(" in book") } ?? false
        }
        try tmux.press("Space")
        try tmux.waitFor("p. 2/")
        try tmux.press("Space")
        try tmux.waitFor("p. 3/")
        try tmux.press("q")
        try tmux.waitForAll("Read <1 min in 1 session", "2 pages a session")
    }
}
