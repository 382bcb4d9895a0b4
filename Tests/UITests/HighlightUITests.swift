import Foundation
import Testing
import TestSupport

/// Highlights and notes in tmux (#31): a search match highlighted and seen in its colour at 72
/// and 40 columns (capture-pane -e), a note of several lines, the highlight opened from hint
/// mode, the list and its jump, reverse video under `NO_COLOR`, deletion; a password-protected
/// book's quote never in clear in the library's files.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct HighlightUITests {
    static let wasteland = UIFixtures.sample("idpf-wasteland.epub")

    /// The screen line holding `word`, with its escape sequences.
    static func coloredLine(_ screen: String, containing word: String) -> String {
        screen.split(separator: "\n").first { $0.contains(word) }.map(String.init) ?? ""
    }

    @Test func aHighlightInColourAtTwoWidthsWithANoteThenInReverseVideo() throws {
        let home = try UIFixtures.home()
        do {
            let tmux = try TmuxSession(width: 72, height: 24, arguments: ["open", Self.wasteland], home: home)
            defer { tmux.close() }
            try tmux.waitForAll("April is the cruellest month", "p. 1/")
            try tmux.press("/")
            try tmux.type("cruellest")
            try tmux.press("Enter")
            try tmux.waitFor("· n next")
            try tmux.press("H")
            try tmux.waitForAll("Highlight —", "1 yellow")
            try tmux.press("Escape")
            try tmux.waitForAbsence(of: "Highlight —")
            try tmux.press("Escape")
            // The search's marks gone (and the Escape read: a key right after it would be Alt-key).
            try tmux.waitForAbsence(of: "n next")
            // The pale yellow background (256-colour 228) on the word, not on the line's start.
            try tmux.waitUntil(colors: true, "cruellest on a yellow background at 72 columns") { screen in
                Self.coloredLine(screen, containing: "cruellest").contains("48;5;228m")
            }
            try tmux.resize(width: 40, height: 24)
            try tmux.waitUntil(colors: true, "cruellest still yellow at 40 columns") { screen in
                let lines = screen.split(separator: "\n")
                return Self.coloredLine(screen, containing: "cruellest").contains("48;5;228m")
                    && !lines.contains { $0.contains("cruellest month, breeding") }
            }
            // A note of two lines, through hint mode's label.
            try tmux.press("f")
            // The label over the highlight's first letter.
            try tmux.waitFor("aruellest")
            try tmux.type("a")
            try tmux.waitForAll("Highlight —", "“cruellest”")
            try tmux.press("n")
            try tmux.waitFor("Note —")
            try tmux.type("Eliot inverts Chaucer")
            try tmux.press("Enter")
            try tmux.type("second line")
            try tmux.press("C-s")
            try tmux.waitFor("Note saved.")
            try tmux.press("q")
            try tmux.waitForExit()
        }
        // Again without colours: read back from the library, drawn in reverse video; listed
        // with its note; deleted.
        let tmux = try TmuxSession(width: 100, height: 24, arguments: ["open", Self.wasteland], home: home,
                                   environment: ["NO_COLOR": "1"])
        defer { tmux.close() }
        try tmux.waitForAll("April is the cruellest month", "p. 1/")
        try tmux.waitUntil(colors: true, "cruellest in reverse video") { screen in
            let line = Self.coloredLine(screen, containing: "cruellest")
            return line.contains("\u{1B}[7mcruellest") || line.contains("7mcruellest")
        }
        try tmux.press("]")
        try tmux.waitForAbsence(of: "April is the cruellest month")
        try tmux.press("A")
        try tmux.waitForAll("Annotations (1/1)", "“cruellest”", "Eliot inverts Chaucer second line")
        try tmux.press("Enter")
        try tmux.waitFor("April is the cruellest month")
        try tmux.press("H")
        try tmux.waitForAll("Highlight —", "Eliot inverts Chaucer", "second line")
        try tmux.press("d")
        try tmux.waitFor("Delete this highlight?")
        try tmux.press("y")
        try tmux.waitFor("Highlight and note deleted.")
        try tmux.press("A")
        try tmux.waitFor("No highlights yet")
    }

    /// A ZIP-password book and an LCP book: the highlight is kept (drawn again at the next
    /// opening, its quote opened with the book's key) and its words are in none of the home's files.
    @Test(arguments: [("derived-wasteland-pkzip-secret.epub", "secret"), ("r2streamerjs-wasteland-otf-obf_LCP_dan.epub", "dan")])
    func aProtectedBooksQuoteIsNeverInClearOnDisk(_ sample: String, _ secret: String) throws {
        let home = try UIFixtures.home()
        let book = UIFixtures.sample(sample)
        for round in 0..<2 {
            let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", book], home: home)
            defer { tmux.close() }
            // The password is remembered after the first opening.
            let first = try tmux.waitUntil("the password dialog or the book") { screen in
                ["Password", "Passphrase", "p. 1/"].contains { screen.contains($0) }
            }
            if !first.contains("p. 1/") {
                try tmux.type(secret)
                try tmux.press("Enter")
            }
            try tmux.waitForAll("April is the cruellest month", "p. 1/")
            if round == 0 {
                try tmux.press("/")
                try tmux.type("cruellest")
                try tmux.press("Enter")
                try tmux.waitFor("· n next")
                try tmux.press("H")
                try tmux.waitFor("Highlight —")
                try tmux.press("Escape")
                try tmux.waitForAbsence(of: "Highlight —")
                try tmux.press("Escape")
                try tmux.waitForAbsence(of: "n next")
            } else {
                try tmux.waitUntil(colors: true, "the sealed highlight drawn again") { screen in
                    Self.coloredLine(screen, containing: "cruellest").contains("48;5;228m")
                }
                // Its quote opened with the book's key (sealed on disk, in clear only on screen).
                try tmux.press("H")
                try tmux.waitForAll("Highlight —", "“cruellest”")
                try tmux.press("Escape")
                try tmux.waitForAbsence(of: "Highlight —")
            }
            try tmux.press("q")
            try tmux.waitForExit()
        }
        var scanned = 0
        let enumerator = FileManager.default.enumerator(atPath: home)
        while let relative = enumerator?.nextObject() as? String {
            let path = home + "/" + relative
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            scanned += 1
            #expect(data.range(of: Data("cruellest".utf8)) == nil, "the quote in clear in \(relative)")
        }
        #expect(scanned > 0)
    }

    /// A comic's page has no text: H writes a note on the page, listed as the page's.
    @Test func aNoteOnAComicPage() throws {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", UIFixtures.sample("derived-page-blanche-excerpt.cbz")],
                                   home: try UIFixtures.home(), environment: ["LECTERN_IMAGES": "symbols"])
        defer { tmux.close() }
        try tmux.waitFor(" 1/")
        try tmux.press("H")
        try tmux.waitFor("Note —")
        try tmux.type("the first panel")
        try tmux.press("C-s")
        try tmux.waitFor("Note saved.")
        try tmux.press("A")
        try tmux.waitForAll("Annotations (1/1)", "(page 1)", "the first panel")
    }
}
