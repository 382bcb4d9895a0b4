import Foundation
@testable import ReaderSettings
@testable import ReaderUI
import Testing
import TestSupport

/// Read-aloud's places and moves in the reader, in-process on the narrated test book: `r`
/// starts at the search match shown or at a selection's start rather than the page's top, and
/// `x` leaves the table being narrated for the phrase after it.
@MainActor
@Suite(.serialized) struct ReadAloudKeysInProcessTests {
    let base = ReadAloudInProcessTests()

    /// The number of the phrase the status line shows (`narration · 3/6`), when it shows one.
    func phraseNumber(_ screen: String) -> Int? {
        guard let range = screen.range(of: #"narration · [0-9]+/"#, options: .regularExpression) else { return nil }
        return Int(screen[range].dropFirst("narration · ".count).dropLast())
    }

    /// The search match shown on the page (the third phrase, on the page's last lines) is where
    /// `r` starts: neither the first phrase of the page nor the second is read.
    @Test func readingStartsAtTheSearchMatch() async throws {
        let ui = try InProcessApp("read-aloud-from-match", rows: 14, columns: 100)
        ui.app.startReader(path: try base.narratedBook(), on: ui.canvas)
        try await ui.waitFor("The first sentence is read first.")
        ui.press(.character("/"))
        ui.type("third plays")
        ui.press(.enter)
        let found = try await ui.waitFor("“third plays”", absent: ["Searching"])
        #expect(found.contains("The first sentence is read first."), "the match is on the first page:\n\(found)")
        ui.press(.character("r"))
        let reading = try await ui.waitUntil("a phrase read") { self.phraseNumber($0) != nil }
        #expect((phraseNumber(reading) ?? 0) >= 3, "read from the match (3/6):\n\(reading)")
        ui.press(.escape)
        try await ui.waitFor("Stopped reading aloud.")
    }

    /// A selection (`v`, here from the match of the second phrase) read aloud with `r`: the
    /// reading starts at its start and the selection ends.
    @Test func readingStartsAtTheSelection() async throws {
        let ui = try InProcessApp("read-aloud-from-selection", rows: 14, columns: 100)
        ui.app.startReader(path: try base.narratedBook(), on: ui.canvas)
        try await ui.waitFor("The first sentence is read first.")
        ui.press(.character("/"))
        ui.type("the second follows")
        ui.press(.enter)
        try await ui.waitFor("“the second follows”", absent: ["Searching"])
        ui.press(.character("v"))
        try await ui.waitUntil("the selection started") { _ in ui.app.currentBook?.selection != nil }
        ui.press(.character("r"))
        let reading = try await ui.waitUntil("a phrase read") { self.phraseNumber($0) != nil }
        #expect((phraseNumber(reading) ?? 0) >= 2, "read from the selection (2/6):\n\(reading)")
        #expect(ui.app.currentBook?.selection == nil)
        ui.press(.escape)
        try await ui.waitFor("Stopped reading aloud.")
    }

    /// The narrated book with its first two phrases in a table (`seq epub:type="table"`).
    func tableBook() throws -> String {
        try base.variant("read-aloud-table", ["OPS/smil/chapter1.smil": {
            $0.replacingOccurrences(of: "<par id=\"a1\">", with: "<seq epub:type=\"table\"><par id=\"a1\">")
                .replacingOccurrences(of: "clipEnd=\"2500ms\"/></par>", with: "clipEnd=\"2500ms\"/></par></seq>")
        }])
    }

    /// `x` while a phrase of a table is read (paused, so that only the key moves it): on to the
    /// first phrase after the table (the page number between is skipped), 3/6.
    @Test func theLeaveKeyGoesPastTheTable() async throws {
        let ui = try InProcessApp("read-aloud-leave-table", rows: 12, columns: 100)
        ui.app.startReader(path: try tableBook(), on: ui.canvas)
        try await ui.waitFor("The first sentence is read first.")
        ui.press(.character("r"))
        try await ui.waitUntil("a phrase read") { self.phraseNumber($0) != nil }
        ui.press(.character("r"))
        let paused = try await ui.waitFor("❚❚ Read aloud")
        #expect((phraseNumber(paused) ?? 0) <= 2, "paused inside the table:\n\(paused)")
        ui.press(.character("x"))
        let after = try await ui.waitFor("❚❚ Read aloud · narration · 3/6")
        #expect(base.isHighlighted("The third plays", in: ui.canvas), "\(after)")
        ui.press(.escape)
        try await ui.waitFor("Stopped reading aloud.")
    }

    /// `}` and `{` while a narration reads (paused, so that only the keys move it; the first two
    /// phrases share a paragraph): `}` from the first paragraph goes past the second phrase, to the third
    /// (the page number's paragraph, skipped, has no phrase); `{` back to the paragraph's first.
    @Test func paragraphKeysMoveTheNarration() async throws {
        let ui = try InProcessApp("read-aloud-paragraphs", rows: 12, columns: 100)
        ui.app.startReader(path: try base.sharedParagraphBook(), on: ui.canvas)
        try await ui.waitFor("The first sentence is read first. Then the second follows it.")
        ui.press(.character("r"))
        try await ui.waitUntil("a phrase read") { self.phraseNumber($0) != nil }
        ui.press(.character("r"))
        let paused = try await ui.waitFor("❚❚ Read aloud")
        #expect((phraseNumber(paused) ?? 0) <= 2, "paused in the first paragraph:\n\(paused)")
        ui.press(.character("}"))
        try await ui.waitFor("❚❚ Read aloud · narration · 3/6")
        ui.press(.character("{"))
        try await ui.waitFor("❚❚ Read aloud · narration · 1/6")
        ui.press(.escape)
        try await ui.waitFor("Stopped reading aloud.")
    }

    /// `}` while espeak-ng says the first sentence of a paragraph of three: the next sentence
    /// heard is the next paragraph's, not the paragraph's second (paused meanwhile, so that
    /// only the key moves it).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libespeak-ng.so.1")
                   || FileManager.default.fileExists(atPath: "/usr/lib/aarch64-linux-gnu/libespeak-ng.so.1"), "espeak-ng is not installed"))
    func theNextParagraphKeyMovesTheSpeech() async throws {
        let environment = ReadAloudSession.environment
        ReadAloudSession.environment["LECTERN_SPEECH_ENGINE"] = "espeak-ng"
        defer { ReadAloudSession.environment = environment }
        let path = try base.variant("read-aloud-speech-paragraphs", [
            "OPS/package.opf": { $0.replacingOccurrences(of: #" media-overlay="mo1""#, with: "").replacingOccurrences(of: #" media-overlay="mo2""#, with: "") },
            "OPS/chapter1.xhtml": {
                $0.replacingOccurrences(of: "The first sentence is read first.</p>",
                                        with: "The first sentence is read first. It has a sequel here. And a third one.</p>")
            },
        ])
        let ui = try InProcessApp("read-aloud-speech-paragraphs", rows: 12, columns: 100)
        ui.app.startReader(path: path, on: ui.canvas)
        try await ui.waitFor("It has a sequel here.")
        ui.press(.character("/"))
        ui.type("first sentence")
        ui.press(.enter)
        try await ui.waitFor("“first sentence”", absent: ["Searching"])
        ui.press(.character("r"))
        try await ui.waitUntil("the first sentence said") { _ in self.base.isHighlighted("The first sentence", in: ui.canvas) }
        ui.press(.character("r"))
        try await ui.waitFor("❚❚ Read aloud")
        ui.press(.character("}"))
        ui.press(.character("r"))
        let next = try await ui.waitUntil("another sentence said") { _ in
            self.base.isHighlighted("Then the second", in: ui.canvas) || self.base.isHighlighted("It has a sequel", in: ui.canvas)
        }
        #expect(base.isHighlighted("Then the second", in: ui.canvas), "the next paragraph, not the next sentence:\n\(next)")
        ui.press(.escape)
        try await ui.waitFor("Stopped reading aloud.")
    }

    /// `[reader] read_skippable = true`: the narration reads the page number too, so that it has
    /// seven phrases; by default six (``ReadAloudInProcessTests``).
    @Test func theSkippableSettingReadsThePageNumber() async throws {
        let file = Fixtures.temporaryDirectory("read-aloud-skippable-config") + "/config.toml"
        try Data("[reader]\nread_skippable = true\n".utf8).write(to: URL(fileURLWithPath: file))
        let config = ReaderConfig.load(path: file)
        #expect(config.readSkippable && config.warnings.isEmpty, "\(config.warnings)")
        let ui = try InProcessApp("read-aloud-skippable", rows: 12, columns: 100)
        ui.app.config.readSkippable = config.readSkippable
        ui.app.startReader(path: try base.narratedBook(), on: ui.canvas)
        try await ui.waitFor("The first sentence is read first.")
        ui.press(.character("r"))
        let reading = try await ui.waitUntil("a phrase read") { self.phraseNumber($0) != nil }
        #expect(reading.contains("/7 ·"), "the page number is a phrase:\n\(reading)")
        ui.press(.escape)
        try await ui.waitFor("Stopped reading aloud.")
    }
}
