import Foundation
import Testing
import TestSupport

/// Copy and print under the publication's rights, driven in tmux: the wasteland LCP sample
/// grants 2048 characters of copy and 100 pages of print.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct CopyPrintUITests {
    static let lcp = UIFixtures.sample("r2streamerjs-wasteland-otf-obf_LCP_dan.epub")

    /// What the license still allows, read by another process from the rights database.
    static func rightsLeft(home: String) throws -> (characters: Int?, pages: Int?) {
        let result = try LecternProcess(home: home).run(["consume-rights", lcp, "--passphrase", "dan", "--times", "0"])
        let object = try #require(result.json as? [String: Any], "consume-rights: \(result.stderr)")
        return (object["charactersLeft"] as? Int, object["pagesLeft"] as? Int)
    }

    @Test func copyConsumesExactlyTheSelectionAndRefusesMoreThanIsLeft() throws {
        let home = try UIFixtures.home()
        // 2040 of the 2048 characters used elsewhere (and the passphrase remembered).
        let used = try LecternProcess(home: home).run(["consume-rights", Self.lcp, "--passphrase", "dan",
                                                       "--copy", String(repeating: "x", count: 2040)])
        #expect(used.status == 0, "\(used.stderr)")
        #expect(try Self.rightsLeft(home: home).characters == 8)

        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.lcp], home: home)
        defer { tmux.close() }
        try tmux.waitUntil("the first page") { $0.contains("The Waste Land") && $0.contains("p. 1/") }
        // v selects the first character; w extends to the end of the word: "The".
        try tmux.press("v")
        try tmux.waitFor("SELECT 1 character")
        try tmux.waitFor("8 left to copy")
        try tmux.press("w")
        try tmux.waitFor("SELECT 3 characters")
        try tmux.press("y")
        try tmux.waitFor("Copied 3 characters, 5 characters left.")
        #expect(try tmux.clipboard() == "The")
        #expect(try Self.rightsLeft(home: home).characters == 5)

        // "The Waste" is 9 characters: refused, nothing consumed, the count left said.
        try tmux.press("v", "w", "w")
        try tmux.waitFor("SELECT 9 characters")
        try tmux.press("y")
        try tmux.waitFor("Copy refused: the selection has 9 characters, only 5 left.")
        #expect(try Self.rightsLeft(home: home).characters == 5)
        #expect(try tmux.clipboard() == "The")

        // Narrowed to 5 characters it goes; then the Copy action is greyed.
        try tmux.press("Escape", "v", "l", "l", "l", "l")
        try tmux.waitFor("SELECT 5 characters")
        try tmux.press("y")
        try tmux.waitFor("Copied 5 characters, 0 characters left.")
        #expect(try tmux.clipboard() == "The W")
        try tmux.press("v")
        try tmux.waitFor("y copy (not allowed)")
        try tmux.press("y")
        try tmux.waitFor("Copy refused")
        #expect(try Self.rightsLeft(home: home).characters == 0)
    }

    @Test func selectionExtendsByLineAndParagraphOnAnOpenBook() throws {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", UIFixtures.sample("idpf-wasteland.epub")],
                                   home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitUntil("the first page") { $0.contains("The Waste Land") && $0.contains("p. 1/") }
        try tmux.press("v", "j")
        try tmux.waitFor("SELECT 25 characters")
        try tmux.press("y")
        try tmux.waitFor("Copied 25 characters.")
        #expect(try tmux.clipboard() == "The Waste Land\nT.S. Eliot")
        // A paragraph at a time, and back.
        try tmux.press("v", "}")
        try tmux.waitFor("SELECT 14 characters")
        try tmux.press("}")
        try tmux.waitFor("SELECT 25 characters")
        // Back to the start of the second paragraph ("T" of "T.S. Eliot"), then of the first.
        try tmux.press("{")
        try tmux.waitFor("SELECT 16 characters")
        try tmux.press("{")
        try tmux.waitFor("SELECT 1 character")
        try tmux.press("Escape")
        try tmux.waitForAbsence(of: "SELECT")
    }

    @Test func printWritesTheChosenPagesToANamedFileWithoutASpooler() throws {
        let home = try UIFixtures.home()
        _ = try LecternProcess(home: home).run(["consume-rights", Self.lcp, "--passphrase", "dan", "--pages", "97"])
        #expect(try Self.rightsLeft(home: home).pages == 3)
        let output = home + "/printed.txt"
        // No print spooler: the pages go to a file.
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.lcp], home: home,
                                   environment: ["LECTERN_PRINT_COMMAND": "none"])
        defer { tmux.close() }
        try tmux.waitUntil("the first page") { $0.contains("The Waste Land") && $0.contains("p. 1/") }
        try tmux.press("p")
        try tmux.waitFor("Print pages 1-")
        try tmux.type("1-4")
        try tmux.press("Enter")
        try tmux.waitFor("Print refused: 4 pages asked, only 3 pages left to print.")
        try tmux.press("p")
        try tmux.waitFor("Print pages 1-")
        try tmux.type("1-2")
        try tmux.press("Enter")
        try tmux.waitFor("save the 2 pages to file:")
        try tmux.type(output)
        try tmux.press("Enter")
        try tmux.waitFor("Saved 2 pages to")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains("April is the cruellest month"))
        #expect(text.components(separatedBy: "\u{0C}").count == 2)
        #expect(try Self.rightsLeft(home: home).pages == 1)
    }

    /// Rights that cannot be read (the license is no longer recorded in the library database):
    /// copy and print are refused with that reason, not as if the allowance were used up.
    @Test func copyAndPrintRefusedWhenTheRightsCannotBeReadSayWhy() throws {
        let home = try UIFixtures.home()
        // The license recorded (and the passphrase remembered), then lost again each time it is recorded.
        let used = try LecternProcess(home: home).run(["consume-rights", Self.lcp, "--passphrase", "dan", "--pages", "1"])
        #expect(used.status == 0, "\(used.stderr)")
        try Command.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("DELETE FROM lcp_licenses")
            db.execute("CREATE TRIGGER lose_license AFTER INSERT ON lcp_licenses BEGIN DELETE FROM lcp_licenses; END")
            db.commit()
            """, [home + "/data/lectern/library.sqlite"])
        let tmux = try TmuxSession(width: 200, height: 24, arguments: ["open", Self.lcp], home: home,
                                   environment: ["LECTERN_PRINT_COMMAND": "none"])
        defer { tmux.close() }
        try tmux.waitUntil("the first page") { $0.contains("The Waste Land") && $0.contains("p. 1/") }
        try tmux.press("v", "w", "y")
        try tmux.waitFor("Copy refused: the copy allowance cannot be counted (")
        try tmux.press("Escape", "p")
        try tmux.waitFor("Print pages 1-")
        try tmux.type("1")
        try tmux.press("Enter")
        let screen = try tmux.waitFor("Print refused: the print allowance cannot be counted (")
        #expect(screen.contains("not recorded"))
        #expect(!screen.contains("left to print"))
    }
}
