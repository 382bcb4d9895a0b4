import Foundation
import Testing
import TestSupport

/// What is typed finds what is printed (#29 item 9: `queequeg's` finds `Queequeg’s`), and a
/// library search goes on in the book opened from it (#29 item 11: highlighted, `n` finds).
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct SearchCarryUITests {
    @Test func aStraightApostropheFindsACurlyOne() throws {
        let book = Fixtures.sample("epub/idpf-moby-dick.epub")
        let tmux = try TmuxSession(width: 100, height: 30, arguments: ["open", book], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitFor("p. 1/")
        try tmux.press("/")
        try tmux.type("queequeg's")
        try tmux.press("Enter")
        let screen = try tmux.waitUntil("an answer") { $0.contains("“queequeg's”") && ($0.contains("n next") || $0.contains("No match")) }
        #expect(!screen.contains("No match"))
        // The match drawn on the page is the book's own spelling, highlighted whole.
        try tmux.waitUntil(colors: true, "the match highlighted") {
            $0.range(of: "\u{1B}\\[[0-9;]*mQueequeg’s", options: .regularExpression) != nil
        }
    }

    @Test func theLibrarySearchGoesOnInTheBookOpened() throws {
        let home = try UIFixtures.home(importing: [UIFixtures.sample("idpf-wasteland.epub")])
        let tmux = try TmuxSession(width: 100, height: 30, arguments: [], home: home)
        defer { tmux.close() }
        try tmux.waitFor("The Waste Land")
        try tmux.press("F")
        try tmux.waitFor("Find in the text of every book:")
        try tmux.type("Tiresias")
        try tmux.press("Enter")
        try tmux.waitUntil("the passages listed") { screen in
            screen.contains("Passages — Tiresias") && screen.split(separator: "\n").contains { $0.contains("The Waste Land") && $0.contains("Tiresias") }
        }
        try tmux.press("Enter")
        try tmux.waitUntil("the passage's page") { !$0.contains("Passages —") && $0.contains("Tiresias") && $0.contains("p. ") }
        // The words found are highlighted on the page…
        try tmux.waitUntil(colors: true, "the match highlighted") {
            $0.range(of: "\u{1B}\\[[0-9;]*mTiresias", options: .regularExpression) != nil
        }
        // …and n goes on with them.
        try tmux.press("n")
        let next = try tmux.waitUntil("the next match") { $0.contains("n next") || $0.contains("No search yet") || $0.contains("No match") }
        #expect(!next.contains("No search yet"))
        #expect(next.contains("“Tiresias”"))
    }
}
