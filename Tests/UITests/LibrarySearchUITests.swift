import Foundation
import Testing
import TestSupport

/// The bookshelf's `F`: passages found in the text of every book, opened where they are.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct LibrarySearchUITests {
    @Test func findsAPassageAndOpensTheBookThere() throws {
        let home = try UIFixtures.home(importing: [UIFixtures.sample("idpf-wasteland.epub"),
                                                   UIFixtures.sample("idpf-childrens-literature.epub")])
        let tmux = try TmuxSession(width: 100, height: 30, arguments: [], home: home)
        defer { tmux.close() }
        try tmux.waitFor("The Waste Land")
        try tmux.press("F")
        try tmux.waitFor("Find in the text of every book:")
        try tmux.type("Tiresias")
        try tmux.press("Enter")
        let passages = try tmux.waitUntil("the passages listed") { screen in
            screen.contains("Passages — Tiresias") && screen.split(separator: "\n").contains { $0.contains("The Waste Land") && $0.contains("Tiresias") }
        }
        #expect(!passages.contains("│ Children's Literature"))
        try tmux.press("Enter")
        // The reader opens on the page of the passage, not at the start of the book.
        let page = try tmux.waitUntil("the passage's page") { screen in
            !screen.contains("Passages —") && screen.contains("Tiresias") && !screen.contains("Find in the text")
        }
        #expect(!page.contains("April is the cruellest month"))
    }

    @Test func booksImportedWithoutIndexingAreIndexedInTheBackground() throws {
        let home = try UIFixtures.home()
        _ = try LecternProcess(home: home).run(["import", "--no-index", UIFixtures.sample("idpf-wasteland.epub")])
        let tmux = try TmuxSession(width: 100, height: 30, arguments: [], home: home)
        defer { tmux.close() }
        try tmux.waitFor("The Waste Land")
        // Searched until the background indexing has stored the book's text (a state, not a time).
        let deadline = Date().addingTimeInterval(60)
        var found = false
        while !found, Date() < deadline {
            try tmux.press("F")
            try tmux.waitFor("Find in the text of every book:")
            try tmux.type("Tiresias")
            try tmux.press("Enter")
            let screen = try tmux.waitUntil("an answer") { $0.contains("Passages — Tiresias") && ($0.contains("No passage") || $0.contains("Tiresias  ") || $0.contains("The Waste Land  ")) }
            found = !screen.contains("No passage")
            try tmux.press("Escape")
            try tmux.waitForAbsence(of: "Passages —")
        }
        #expect(found)
    }

    @Test func nothingFoundSaysSo() throws {
        let home = try UIFixtures.home(importing: [UIFixtures.sample("idpf-wasteland.epub")])
        let tmux = try TmuxSession(width: 100, height: 30, arguments: [], home: home)
        defer { tmux.close() }
        try tmux.waitFor("The Waste Land")
        try tmux.press("F")
        try tmux.type("xylophonequartz")
        try tmux.press("Enter")
        try tmux.waitFor("No passage of an indexed book has these words.")
        try tmux.press("Escape")
        try tmux.waitForAbsence(of: "No passage")
        try tmux.waitFor("The Waste Land")
    }
}
