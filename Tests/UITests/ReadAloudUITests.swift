import Foundation
import Testing
import TestSupport

/// Read-aloud in the reader under tmux (#33), the sound to libmpv's null output
/// (`LECTERN_AUDIO_OUTPUT=null`, real time, no device): `r` reads a narrated EPUB from the
/// page, the phrase read is drawn highlighted (the theme's current-match colours) and moves in the SMIL's order, the page turns to
/// follow it; `r` pauses, Escape stops. Without narration the text is spoken (espeak-ng), the
/// sentence highlighted; without espeak-ng the status line names the Debian packages.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct ReadAloudUITests {
    static let silent = ["LECTERN_AUDIO_OUTPUT": "null"]

    static func narratedBook() throws -> String {
        let path = Fixtures.temporaryDirectory("read-aloud-ui") + "/narrated.epub"
        try MediaOverlayEPUB.write(to: path)
        return path
    }

    /// The highlighted words on `screen` (captured with its escape sequences): the text of the
    /// page drawn on a background colour (the theme's current match: the phrase read), up to
    /// the next change; nil when none is. The status line, on its own background, is left out.
    static func highlighted(_ screen: String) -> String? {
        for line in screen.split(separator: "\n").dropLast() {
            var background = false, text = "", index = line.startIndex
            while index < line.endIndex {
                // SGR sequences: ESC [ parameters m; 48;5;N sets the background, 0 and 49 reset it.
                if line[index] == "\u{1B}", let end = line[index...].firstIndex(of: "m") {
                    let parameters = line[line.index(index, offsetBy: 2)..<end].split(separator: ";", omittingEmptySubsequences: false)
                    if parameters.isEmpty || parameters.contains("0") || parameters.contains("49") { background = false }
                    if parameters.first == "48" || parameters.contains("7") { background = true }
                    if !background, !text.isEmpty { break }
                    index = line.index(after: end)
                    continue
                }
                if background { text.append(line[index]) }
                index = line.index(after: index)
            }
            let words = text.trimmingCharacters(in: .whitespaces)
            if !words.isEmpty { return words }
        }
        return nil
    }

    /// The highlight moves phrase by phrase in the SMIL's order and the page turns to the third
    /// phrase; `r` pauses (the status line says so), Escape stops (the highlight goes).
    @Test func theHighlightFollowsTheNarrationAcrossAPageTurn() throws {
        let tmux = try TmuxSession(width: 60, height: 5, arguments: ["open", try Self.narratedBook()], home: try UIFixtures.home(),
                                   environment: Self.silent)
        defer { tmux.close() }
        let page1 = try tmux.waitUntilSettled("the first page") { $0.contains("The first sentence is read first.") && $0.contains("p. 1/") }
        #expect(!page1.contains("The third plays"), "the third phrase is on the next page:\n\(page1)")
        try tmux.press("r")
        var seen: [String] = []
        let order = ["The first sentence is read first.", "Then the second follows it.", "The third plays to the end of its file."]
        let third = try tmux.waitUntil(timeout: 30, colors: true, "the third phrase highlighted") { screen in
            if let words = Self.highlighted(screen), words != seen.last { seen.append(words) }
            return seen.last == order[2]
        }
        #expect(seen == order, "highlighted in order: \(seen)")
        #expect(third.contains("▶ Read aloud · narration · 3/6"))
        let turned = try tmux.waitUntilSettled("the page turned with the third phrase") { $0.contains("The third plays") }
        #expect(turned.contains("p. 2/"), "\(turned)")
        #expect(!turned.contains("The first sentence is read first."))
        try tmux.press("r")
        try tmux.waitFor("❚❚ Read aloud")
        try tmux.press("Escape")
        let stopped = try tmux.waitUntil(colors: true, "stopped, nothing highlighted") { screen in
            screen.contains("Stopped reading aloud.") && Self.highlighted(screen) == nil
        }
        #expect(!stopped.contains("Read aloud ·"))
    }

    /// A book without narration is spoken: the highlighted sentence moves on, the status line
    /// names espeak-ng.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/bin/espeak-ng"), "espeak-ng is not installed"))
    func textIsSpokenSentenceBySentence() throws {
        let path = Fixtures.temporaryDirectory("read-aloud-tts") + "/speech.epub"
        try TestEPUBs.write(title: "Speech", language: "en", body: """
            <p>One short sentence comes first. A second one follows it. The third ends the paragraph.</p>
            """, to: path)
        let tmux = try TmuxSession(width: 70, height: 10, arguments: ["open", path], home: try UIFixtures.home(), environment: Self.silent)
        defer { tmux.close() }
        try tmux.waitFor("One short sentence")
        try tmux.press("r")
        var seen: [String] = []
        try tmux.waitUntil(timeout: 30, colors: true, "the second sentence highlighted after the first") { screen in
            if let words = Self.highlighted(screen), let sentence = ["One short sentence", "A second one"].first(where: words.contains),
               sentence != seen.last {
                seen.append(sentence)
            }
            return seen.last == "A second one"
        }
        #expect(seen == ["One short sentence", "A second one"], "\(seen)")
        let status = try tmux.waitFor("espeak-ng")
        #expect(status.contains("▶ Read aloud"))
    }

    /// Without the speech engine, the status line says which Debian packages to install, and
    /// the reader goes on (the message goes with the next key).
    @Test func aMissingSpeechEngineNamesThePackages() throws {
        let path = Fixtures.temporaryDirectory("read-aloud-missing") + "/speech.epub"
        try TestEPUBs.write(title: "Speech", language: "en", body: "<p>Nothing to hear here.</p>", to: path)
        var environment = Self.silent
        environment["LECTERN_ESPEAK_LIBRARY"] = "/nonexistent/libespeak-ng.so.1"
        let tmux = try TmuxSession(width: 230, height: 10, arguments: ["open", path], home: try UIFixtures.home(), environment: environment)
        defer { tmux.close() }
        try tmux.waitFor("Nothing to hear here.")
        try tmux.press("r")
        let refused = try tmux.waitFor("install the Debian packages espeak-ng, libespeak-ng1 and espeak-ng-data")
        #expect(!refused.contains("▶ Read aloud"))
        // The message goes with the next key, the page stays usable.
        try tmux.press("Escape")
        try tmux.waitUntil("the status line back to the page") { !$0.contains("Debian packages") && $0.contains("p. 1/1") }
    }
}
