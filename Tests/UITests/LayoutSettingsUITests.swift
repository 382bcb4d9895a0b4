import Foundation
import Testing
import TestSupport

/// Margins and paragraph spacing changed while reading: the text column moves at once and
/// config.toml gets that one line, the rest of the file as the person wrote it.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct LayoutSettingsUITests {
    /// The column where `text` starts on the screen, if it is shown.
    static func column(of text: String, in screen: String) -> Int? {
        for line in screen.split(separator: "\n") {
            if let range = line.range(of: text) { return line.distance(from: line.startIndex, to: range.lowerBound) }
        }
        return nil
    }

    static func config(_ home: String) -> String {
        (try? String(contentsOfFile: home + "/config/lectern/config.toml", encoding: .utf8)) ?? ""
    }

    @Test func marginKeyMovesTheColumnAndSavesOnlyItsLine() throws {
        let home = try UIFixtures.home()
        try FileManager.default.createDirectory(atPath: home + "/config/lectern", withIntermediateDirectories: true)
        let original = "# my settings\ntheme = \"default\"\n[reader]\ntext_width = 0   # the whole window\nmargin = 2\n"
        try original.write(toFile: home + "/config/lectern/config.toml", atomically: true, encoding: .utf8)
        let tmux = try TmuxSession(width: 60, height: 20, arguments: ["open", ReaderScreenTests.wasteland], home: home)
        defer { tmux.close() }
        let before = try #require(Self.column(of: "April is the cruellest month", in: try tmux.waitFor("April is the cruellest month")))
        // The message is set before the chapter is laid out again (off the main actor): the
        // whole state is waited for, message and moved column; a key that does not move the
        // column times out with the screen.
        try tmux.press("M")
        let after = try tmux.waitUntil("“Margins: 4 cells” and the text 2 cells further right") { screen in
            screen.contains("Margins: 4 cells") && Self.column(of: "April is the cruellest month", in: screen) == before + 2
        }
        #expect(Self.column(of: "April is the cruellest month", in: after) == before + 2, "\(after)")
        #expect(Self.config(home) == original.replacingOccurrences(of: "margin = 2", with: "margin = 4"))
        try tmux.press("M", "M", "M")
        let none = try tmux.waitUntil("“Margins: 0 cells” and the text 2 cells left of where it began") { screen in
            screen.contains("Margins: 0 cells") && Self.column(of: "April is the cruellest month", in: screen) == before - 2
        }
        #expect(Self.column(of: "April is the cruellest month", in: none) == before - 2, "\(none)")
        #expect(Self.config(home).contains("\nmargin = 0\n"))
    }

    @Test func spacingKeyPutsBlankLinesBetweenParagraphs() throws {
        let home = try UIFixtures.home()
        let book = Fixtures.temporaryDirectory("spacing") + "/paragraphs.epub"
        try TestEPUBs.write(title: "Paragraphs", body: "<p>First paragraph.</p><p>Second paragraph.</p>", to: book)
        let tmux = try TmuxSession(width: 60, height: 12, arguments: ["open", book], home: home)
        defer { tmux.close() }
        func rows(_ screen: String) -> (Int, Int)? {
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            guard let first = lines.firstIndex(where: { $0.contains("First paragraph.") }),
                  let second = lines.firstIndex(where: { $0.contains("Second paragraph.") }) else { return nil }
            return (first, second)
        }
        let start = try #require(rows(try tmux.waitFor("Second paragraph.")))
        #expect(start.1 == start.0 + 1)
        try tmux.press("s")
        // The message and the new layout are drawn at different moments: both are waited for.
        let spaced = try tmux.waitUntil("“Paragraph spacing: 1 blank line” and the paragraphs two rows apart") { screen in
            screen.contains("Paragraph spacing: 1 blank line") && rows(screen).map { $0.1 == $0.0 + 2 } == true
        }
        let rowsAfter = try #require(rows(spaced))
        #expect(rowsAfter.1 == rowsAfter.0 + 2, "\(spaced)")
        #expect(Self.config(home) == "[reader]\nparagraph_spacing = 1\n")
    }
}
