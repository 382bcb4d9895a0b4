import Foundation
import Testing
import TestSupport

/// Where a selection starts and how far it goes: at the search match, at a cursor placed by
/// word and line, both ends extended, and what fits of the copy allowance offered.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct SelectionPlacementUITests {
    static let wasteland = UIFixtures.sample("idpf-wasteland.epub")

    @Test func selectionStartsAtTheSearchMatch() throws {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.wasteland], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitForAll("April is the cruellest month", "p. 1/")
        try tmux.press("/")
        try tmux.type("cruellest")
        try tmux.press("Enter")
        try tmux.waitFor("· n next")
        try tmux.press("v")
        try tmux.waitFor("SELECT 9 characters")
        // One word further: "cruellest month".
        try tmux.press("w")
        try tmux.waitFor("SELECT 15 characters")
        try tmux.press("y")
        try tmux.waitFor("Copied 15 characters.")
        #expect(try tmux.clipboard() == "cruellest month")
    }

    @Test func aCursorPlacesTheStartAndBothEndsExtend() throws {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.wasteland], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitUntil("the first page") { $0.contains("The Waste Land") && $0.contains("p. 1/") }
        try tmux.press("c")
        try tmux.waitFor("CURSOR · w b j k h l move")
        // y does not copy a cursor.
        try tmux.press("w", "y")
        try tmux.press("v")
        try tmux.waitFor("SELECT 1 character")
        try tmux.press("w")
        try tmux.waitFor("SELECT 5 characters")
        try tmux.press("y")
        try tmux.waitFor("Copied 5 characters.")
        #expect(try tmux.clipboard() == "Waste")
        // A line down with the cursor ("T.S. Eliot"), a word on ("T.S"), then the start moved
        // back a word with o: "Land\nT.S".
        try tmux.press("c", "j", "v")
        try tmux.waitFor("SELECT 1 character")
        try tmux.press("w")
        try tmux.waitFor("SELECT 3 characters")
        try tmux.press("o", "b")
        try tmux.waitFor("SELECT 8 characters")
        try tmux.press("y")
        try tmux.waitFor("Copied 8 characters.")
        #expect(try tmux.clipboard() == "Land\nT.S")
    }

    @Test func aSelectionPastTheAllowanceOffersWhatFits() throws {
        let home = try UIFixtures.home()
        let lcp = CopyPrintUITests.lcp
        let used = try LecternProcess(home: home).run(["consume-rights", lcp, "--passphrase", "dan",
                                                       "--copy", String(repeating: "x", count: 2040)])
        #expect(used.status == 0, "\(used.stderr)")
        let tmux = try TmuxSession(width: 100, height: 24, arguments: ["open", lcp], home: home)
        defer { tmux.close() }
        try tmux.waitUntil("the first page") { $0.contains("The Waste Land") && $0.contains("p. 1/") }
        try tmux.press("v", "w", "w")
        try tmux.waitFor("SELECT 9 characters")
        try tmux.press("y")
        try tmux.waitFor("only 8 left. y copies the first 8 characters")
        try tmux.press("y")
        try tmux.waitFor("Copied 8 characters, 0 characters left.")
        #expect(try tmux.clipboard() == "The Wast")
        #expect(try CopyPrintUITests.rightsLeft(home: home).characters == 0)
    }
}
