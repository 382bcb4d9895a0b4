import Foundation
import Testing
import TestSupport

/// The reader driven in tmux: first text, paging, table of contents, search, bookmarks,
/// position kept across runs, small windows and resizes.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct ReaderScreenTests {
    static let wasteland = UIFixtures.sample("idpf-wasteland.epub")

    /// The page number of the status line ("p. 3/26" → 3).
    static func page(_ screen: String) -> Int? {
        guard let range = screen.range(of: "p. ") else { return nil }
        return Int(screen[range.upperBound...].prefix { $0.isNumber })
    }

    @Test func openingShowsTheFirstText() throws {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.wasteland], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitForAll("April is the cruellest month", "The Waste Land", "p. 1/")
        // The book percentage comes from a background count; "—" until then, a number after.
        try tmux.waitUntil("a book percentage") { $0.split(separator: "\n").last?.contains("%") ?? false }
        try tmux.press("q")
        try tmux.waitForExit()
    }

    @Test func pagesForwardAndBackAndByCount() throws {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.wasteland], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitFor("April is the cruellest month")
        try tmux.press("Space")
        var screen = try tmux.waitFor("p. 2/")
        #expect(!screen.contains("April is the cruellest month"))
        try tmux.press("3", "Space")
        screen = try tmux.waitFor("p. 5/")
        try tmux.press("b")
        try tmux.waitFor("p. 4/")
        try tmux.press("g")
        screen = try tmux.waitForAll("p. 1/", "April is the cruellest month")
        // Lines and half pages.
        try tmux.press("C-d")
        screen = try tmux.waitUntil("half a page down") { Self.page($0) == 2 }
        try tmux.press("k")
        try tmux.waitUntil("one line up") { Self.page($0) == 2 && !$0.contains("T.S. Eliot") }
        // G goes to the last page; 50% to the middle.
        try tmux.press("G")
        screen = try tmux.waitUntil("the last page") { screen in
            guard let range = screen.range(of: "p. ") else { return false }
            let figures = screen[range.upperBound...].prefix { $0 != " " }.split(separator: "/")
            return figures.count == 2 && figures[0] == figures[1]
        }
        try tmux.press("5", "0", "%")
        try tmux.waitUntil("the middle") { (Self.page($0) ?? 0) > 5 && !$0.contains("p. 26/") }
    }

    @Test func tableOfContentsJumps() throws {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.wasteland], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitFor("April is the cruellest month")
        try tmux.press("t")
        try tmux.waitFor("Contents")
        try tmux.waitFor("V. WHAT THE THUNDER SAID")
        try tmux.press("j", "j", "j", "j") // I → V.
        try tmux.press("Enter")
        // The whole state at once: ncurses writes the status row last, and the page figure
        // follows the book's length pass, which a loaded machine may finish later.
        try tmux.waitUntil(timeout: 60, "part V with its page figure") { screen in
            screen.contains("After the torchlight red on sweaty faces") && !screen.contains("Contents")
                && (Self.page(screen) ?? 0) > 10
        }
    }

    /// Five table-of-contents entries point into one file: the status line names the part being
    /// read, the contents popup selects it, and a bookmark is labelled with it.
    @Test func theChapterShownIsThePartBeingRead() throws {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.wasteland], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitFor("April is the cruellest month")
        try tmux.waitUntil("part I in the status line") { $0.split(separator: "\n").last?.contains("I. THE BURIAL OF THE DEAD") ?? false }
        try tmux.press("t")
        try tmux.waitFor("IV. DEATH BY WATER")
        try tmux.press("j", "j", "j") // I → IV.
        try tmux.press("Enter")
        try tmux.waitUntil("part IV in the status line") { screen in
            screen.contains("Phlebas the Phoenician") && (screen.split(separator: "\n").last?.contains("IV. DEATH BY WATER") ?? false)
        }
        // The contents popup opens on part IV (the selected entry is drawn in the cursor colours).
        try tmux.press("t")
        // The popup whole (its last entry) with part IV in the cursor colours, on one capture.
        func entry(_ title: String, in screen: String) -> Substring { screen.split(separator: "\n").first { $0.contains(title) } ?? "" }
        let popup = try tmux.waitUntil(colors: true, "the contents on part IV") { screen in
            screen.contains("V. WHAT THE THUNDER SAID") && entry("DEATH BY WATER", in: screen).contains("\u{1B}[")
                && entry("DEATH BY WATER", in: screen) != entry("THE FIRE SERMON", in: screen)
        }
        let selected = entry("DEATH BY WATER", in: popup)
        let other = entry("THE FIRE SERMON", in: popup)
        #expect(selected.contains("\u{1B}[") && selected != other)
        #expect(!(other.contains("\u{1B}[7m")))
        try tmux.press("Escape")
        try tmux.press("m")
        try tmux.waitFor("Bookmark added")
        try tmux.press("'")
        try tmux.waitFor("IV. DEATH BY WATER: ")
    }

    @Test func searchFindsAndHighlightsMatchesAcrossChapters() throws {
        let book = UIFixtures.sample("readium-mobydick.webpub")
        let tmux = try TmuxSession(width: 90, height: 24, arguments: ["open", book], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitUntil("the first page") { Self.page($0) == 1 }
        let before = try tmux.screen()
        try tmux.press("/")
        try tmux.type("Ishmael")
        try tmux.press("Enter")
        let screen = try tmux.waitUntil("a match") { $0.contains("Call me Ishmael") || $0.contains("Ishmael") && $0 != before }
        #expect(screen.contains("Ishmael"))
        // The match is drawn in the theme's match colours (reverse video without colours).
        // (A change of attributes right where the word starts: the status line's own reverse video does not count.)
        try tmux.waitUntil(colors: true, "the match highlighted") {
            $0.range(of: "\u{1B}\\[[0-9;]*mIshmael", options: .regularExpression) != nil
        }
        try tmux.press("n")
        try tmux.waitFor("· n next")
        try tmux.press("/")
        try tmux.type("zzqqxxnotthere")
        try tmux.press("Enter")
        try tmux.waitFor("No match for")
    }

    @Test func bookmarksAndReopeningAtThePosition() throws {
        let home = try UIFixtures.home()
        do {
            let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.wasteland], home: home)
            defer { tmux.close() }
            try tmux.waitFor("April is the cruellest month")
            try tmux.press("4", "Space")
            try tmux.waitFor("p. 5/")
            try tmux.press("m")
            try tmux.waitFor("Bookmark added")
            try tmux.press("Space")
            try tmux.waitFor("p. 6/")
            try tmux.press("q")
            try tmux.waitForExit()
        }
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.wasteland], home: home)
        defer { tmux.close() }
        // Reopened where it was left.
        try tmux.waitFor("p. 6/")
        try tmux.press("'")
        try tmux.waitForAll("Bookmarks", "%")
        try tmux.press("Enter")
        try tmux.waitFor("p. 5/")
        // Deleting the bookmark.
        try tmux.press("'")
        try tmux.waitFor("Bookmarks")
        try tmux.press("d")
        try tmux.waitFor("No bookmarks yet")
    }

    /// A reading position that cannot be saved (another `lectern` removed the book from the
    /// library meanwhile) is said on the status line, not lost silently.
    @Test func aPositionThatCannotBeSavedIsShown() throws {
        let home = try UIFixtures.home(importing: [Self.wasteland])
        let tmux = try TmuxSession(width: 120, height: 24, arguments: ["open", Self.wasteland], home: home)
        defer { tmux.close() }
        try tmux.waitForAll("April is the cruellest month", "p. 1/")
        try Command.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("DELETE FROM shelf_publications")
            db.commit()
            """, [home + "/data/lectern/library.sqlite"])
        // A jump saves the position (the parts of the contents are in one file).
        try tmux.press("t")
        try tmux.waitForAll("Contents", "V. WHAT THE THUNDER SAID")
        try tmux.press("j", "j", "j", "j", "Enter")
        try tmux.waitForAll("After the torchlight red on sweaty faces",
                            "Could not save the reading position: library database: the publication is no longer in the library")
        try tmux.press("m")
        try tmux.waitFor("Could not add the bookmark: library database:")
    }

    @Test func tinyWindowAndResizeKeepThePlace() throws {
        let tmux = try TmuxSession(width: 40, height: 12, arguments: ["open", Self.wasteland], home: try UIFixtures.home())
        defer { tmux.close() }
        let tiny = try tmux.waitUntil("the status line whole") { $0.contains("p. 1/") && ($0.contains("%") || $0.contains("—")) }
        // The status line keeps its right end (page and percentage) in 40 columns: the title gives way.
        let status = tiny.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        #expect(status.contains("p. 1/") && (status.hasSuffix("%") || status.hasSuffix("—")), "\(tiny)")
        try tmux.press("1", "0", "Space")
        let small = try tmux.waitFor("p. 11/")
        let firstLine = try #require(small.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) })
        let firstWords = String(firstLine.prefix(12))
        try tmux.resize(width: 100, height: 30)
        // Reflowed to the wider window, the page starts with the same text.
        // The status row is written after the page: it is part of the state waited for.
        let wide = try tmux.waitUntil("the reflowed page with its status line") { screen in
            screen.split(separator: "\n").count >= 29 && (screen.split(separator: "\n").first.map { $0.contains(firstWords) } ?? false)
                && (screen.split(separator: "\n").last?.contains("p. ") ?? false)
        }
        #expect(wide.split(separator: "\n").last?.contains("p. ") ?? false)
        try tmux.resize(width: 40, height: 12)
        try tmux.waitUntil("back to the small window") { $0.split(separator: "\n").first.map { $0.contains(firstWords) } ?? false }
    }

    @Test func helpShowsEveryKey() throws {
        let tmux = try TmuxSession(width: 100, height: 40, arguments: ["open", Self.wasteland], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitFor("April is the cruellest month")
        try tmux.press("?")
        // Waits for the whole popup: tmux may show a screen that is still being drawn.
        let wanted = ["Keys", "next page", "table of contents", "search the whole book", "bookmark this page", "C-d", "pgdn",
                      "15 s forward"]
        let screen = try tmux.waitUntil("the help popup") { screen in wanted.allSatisfy { screen.contains($0) } }
        for text in wanted {
            #expect(screen.contains(text), "help lacks \(text)")
        }
        try tmux.press("Escape")
        try tmux.waitForAbsence(of: "table of contents")
    }

    /// Escape clears a message and the search's highlights, and never leaves the book: q does.
    @Test func escapeClearsAndNeverQuits() throws {
        let tmux = try TmuxSession(width: 90, height: 24, arguments: ["open", Self.wasteland], home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitFor("April is the cruellest month")
        try tmux.press("/")
        try tmux.type("zzqqxxnotthere")
        try tmux.press("Enter")
        try tmux.waitFor("No match for")
        try tmux.press("Escape")
        try tmux.waitForAbsence(of: "No match for")
        try tmux.press("Escape")
        try tmux.press("Space")
        let next = try tmux.waitFor("p. 2/")
        #expect(!(try tmux.hasExited()))
        #expect(next.contains("p. 2/"))
        try tmux.press("q")
        try tmux.waitForExit()
    }

    /// The text column and paragraph style change while reading, and are saved in config.toml.
    @Test func widthAndJustificationChangeLiveAndAreSaved() throws {
        let home = try UIFixtures.home()
        let tmux = try TmuxSession(width: 100, height: 24, arguments: ["open", Self.wasteland], home: home)
        defer { tmux.close() }
        try tmux.waitFor("April is the cruellest month")
        try tmux.press("w")
        try tmux.waitFor("Text: 76 columns, ragged, indented paragraphs")
        try tmux.press("w")
        try tmux.waitFor("Text: 72 columns")
        try tmux.press("J")
        try tmux.waitFor("Text: 72 columns, justified")
        try tmux.press("I")
        try tmux.waitFor("flush paragraphs")
        let config = try String(contentsOfFile: home + "/config/lectern/config.toml", encoding: .utf8)
        #expect(config == "[reader]\nparagraph_indent = 0\njustify = true\ntext_width = 72\n")
        // Wider, up to the window, is saved as 0 (the window's width).
        for _ in 0..<10 { try tmux.press("W") }
        try tmux.waitFor("Text: the window's width")
        #expect(try String(contentsOfFile: home + "/config/lectern/config.toml", encoding: .utf8).contains("text_width = 0"))
    }

    @Test func footnotePopup() throws {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", UIFixtures.sample("idpf-childrens-literature.epub")],
                                   home: try UIFixtures.home())
        defer { tmux.close() }
        try tmux.waitFor("p. 1/")
        // The cover has nothing to follow, and says so.
        try tmux.press("f")
        try tmux.waitFor("No note reference or link on this page.")
        // The contents page has links rather than note references: Enter follows the first one.
        try tmux.press("]")
        try tmux.waitFor("THE CONTENTS")
        try tmux.press("Enter")
        let jumped = try tmux.waitUntil("the first link's chapter") { screen in
            !screen.contains("THE CONTENTS") && screen.contains("BIBLIOGRAPHY") && screen.contains("p. 1/198")
                && screen.contains("SECTION IV FAIRY STORIES")
        }
        #expect(jumped.contains("SECTION IV FAIRY STORIES"))
    }

    @Test func themeSwitchIsSavedAndNoColorIsRespected() throws {
        let home = try UIFixtures.home()
        do {
            let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.wasteland], home: home)
            defer { tmux.close() }
            try tmux.waitFor("April is the cruellest month")
            try tmux.press("T")
            try tmux.waitFor("Theme: dark")
            let config = home + "/config/lectern/config.toml"
            let deadline = Date().addingTimeInterval(10)
            while (try? String(contentsOfFile: config, encoding: .utf8))?.contains("theme = \"dark\"") != true, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.02)
            }
            #expect(try String(contentsOfFile: config, encoding: .utf8).contains("theme = \"dark\""))
            let colored = try tmux.screen(colors: true)
            #expect(colored.contains("\u{1B}[38;5;") || colored.contains("\u{1B}[48;5;"))
        }
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.wasteland], home: home, environment: ["NO_COLOR": "1"])
        defer { tmux.close() }
        // The status line (reverse video) is written after the page: both are waited for.
        let plain = try tmux.waitUntil(colors: true, "the first page and its status line in reverse video") { screen in
            screen.contains("April is the cruellest month") && screen.contains("\u{1B}[7m")
        }
        #expect(!plain.contains("38;5;") && !plain.contains("48;5;"))
        // The status line is still set apart, in reverse video.
        #expect(plain.contains("\u{1B}[7m"))
    }
}
