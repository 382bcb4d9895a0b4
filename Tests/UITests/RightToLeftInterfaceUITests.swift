import Foundation
import Testing
import TestSupport

/// Right-to-left words in the interface's own lines (#29 item 10), on a real terminal: a
/// Hebrew title inside the shelf's prompt, a Hebrew search in the list of matches (its popup
/// title, the section label and the snippet) are in visual order as the page text is, and in
/// logical order when the terminal reorders (`bidi = "terminal"`).
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct RightToLeftInterfaceUITests {
    /// A Hebrew book: שלום עולם, one chapter פרק ראשון: הים whose text is הספר הזה עוסק בשייט.
    static func hebrewBook() throws -> String {
        let path = Fixtures.temporaryDirectory("rtl-interface") + "/shalom.epub"
        try TestEPUBs.write(title: "שלום עולם", language: "he", body: "<p dir=\"rtl\">הספר הזה עוסק בשייט</p>",
                            chapterTitle: "פרק ראשון: הים", to: path)
        return path
    }

    static func home(terminalReorders: Bool, importing paths: [String] = []) throws -> String {
        let home = try UIFixtures.home(importing: paths)
        if terminalReorders {
            try FileManager.default.createDirectory(atPath: home + "/config/lectern", withIntermediateDirectories: true)
            try "[reader]\nbidi = \"terminal\"\n".write(toFile: home + "/config/lectern/config.toml", atomically: true, encoding: .utf8)
        }
        return home
    }

    @Test func theShelfsRemovePromptShowsAHebrewTitleInVisualOrder() throws {
        let tmux = try TmuxSession(width: 100, height: 16, arguments: [], home: try Self.home(terminalReorders: false, importing: [try Self.hebrewBook()]))
        defer { tmux.close() }
        try tmux.waitFor("םלוע םולש")
        try tmux.press("d")
        let screen = try tmux.waitUntilSettled("the remove prompt") { $0.contains("y/n") }
        let prompt = screen.split(separator: "\n").first { $0.contains("Remove") }.map(String.init) ?? ""
        #expect(prompt.contains("Remove \"םלוע םולש\" from the library"), "the title backwards in the prompt:\n\(screen)")
        #expect(!screen.contains("שלום עולם"), "a title in logical order:\n\(screen)")
    }

    @Test func theListOfMatchesShowsAHebrewQuerySectionAndSnippetInVisualOrder() throws {
        let tmux = try TmuxSession(width: 100, height: 16, arguments: ["open", try Self.hebrewBook()],
                                   home: try Self.home(terminalReorders: false))
        defer { tmux.close() }
        try tmux.waitFor("טיישב")
        try tmux.press("/")
        try tmux.type("בשייט")
        try tmux.press("Enter")
        // The status line: the query turned in place, its figures after it, the section too.
        let found = try tmux.waitUntilSettled("the match's status line") { $0.contains("· n next") }
        // (" 1/1" after the query once the book's index counts the matches.)
        let status = found.split(separator: "\n").last.map(String.init) ?? ""
        #expect(status.hasPrefix(" “טיישב” ") && status.contains(" · םיה :ןושאר קרפ · n next"), "\(found)")
        try tmux.press("S")
        let screen = try tmux.waitUntilSettled("the list of matches") { $0.contains("1 match") && $0.contains("enter go") }
        #expect(screen.contains("“טיישב” — 1 match"), "the query backwards in the popup's title:\n\(screen)")
        let row = screen.split(separator: "\n").first { $0.contains("קרפ") || $0.contains("פרק") }.map(String.init) ?? ""
        #expect(row.contains("םיה :ןושאר קרפ"), "the section backwards in its row:\n\(screen)")
        #expect(row.contains("טיישב קסוע הזה רפסה"), "the snippet backwards in its row:\n\(screen)")
    }

    @Test func aTerminalThatReordersGetsTheInterfaceInLogicalOrder() throws {
        let tmux = try TmuxSession(width: 100, height: 16, arguments: [], home: try Self.home(terminalReorders: true, importing: [try Self.hebrewBook()]))
        defer { tmux.close() }
        try tmux.waitFor("שלום עולם")
        try tmux.press("d")
        let screen = try tmux.waitUntilSettled("the remove prompt") { $0.contains("y/n") }
        #expect(screen.contains("Remove \"שלום עולם\" from the library"), "\(screen)")
        #expect(!screen.contains("םלוע םולש"), "reordered twice:\n\(screen)")
    }
}
