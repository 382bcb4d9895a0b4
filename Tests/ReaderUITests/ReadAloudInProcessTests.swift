import Bookshelf
import Foundation
@testable import ReaderSettings
@testable import ReaderUI
import Shared
import Streamer
import Terminal
import Testing
import TestSupport

/// Read-aloud in the reader, in-process: the engines alone (the phrases of a narrated EPUB in
/// the SMIL's order across its chapters, then stopped; sentences spoken by espeak-ng in order)
/// and the whole interface on a canvas (`r` starts, the highlight and the page follow the
/// narration into the next chapter, Escape stops). Audio goes to libmpv's null output.
@MainActor
@Suite(.serialized) struct ReadAloudInProcessTests {
    static let silent = ["LECTERN_AUDIO_OUTPUT": "null"]

    init() {
        ReadAloudSession.environment = ProcessInfo.processInfo.environment.merging(Self.silent) { $1 }
    }

    func narratedBook() throws -> String {
        let path = Fixtures.temporaryDirectory("read-aloud-narrated") + "/narrated.epub"
        try MediaOverlayEPUB.write(to: path)
        return path
    }

    func open(_ path: String) async throws -> Publication {
        try await PublicationOpener().open(asset: try AssetRetriever().retrieve(path: path), allowUserInteraction: false)
    }

    /// Collects the engine's events until `done` says so (bounded: 600 s of events at most, as a
    /// full `swift test` can hold the whole process for minutes).
    func collect(_ engine: any ReadAloudEngine, until done: ([ReadAloudEvent]) -> Bool) async throws -> [ReadAloudEvent] {
        var events: [ReadAloudEvent] = []
        let deadline = ContinuousClock.now + .seconds(600)
        for await event in engine.events {
            events.append(event)
            if done(events) || ContinuousClock.now > deadline { break }
        }
        return events
    }

    func spans(_ events: [ReadAloudEvent]) -> [ReadAloudSpan] {
        events.compactMap { if case .span(let span) = $0 { span } else { nil } }
    }

    /// The overlay engine reads the phrases in the SMIL's order, from the page's place, into the
    /// next chapter (the page number skipped), each with the element that ends its text; once
    /// stopped, its events end.
    @Test func overlayPhrasesComeInOrderAcrossChapters() async throws {
        let publication = try await open(try narratedBook())
        defer { publication.close() }
        let chapters = ["OPS/chapter1.xhtml": 0, "OPS/chapter2.xhtml": 1]
        let engine = try await OverlayReadAloud.start(publication: publication, chapter: 0, pageStart: 0, anchors: [:],
                                                      chapterOf: { chapters[$0] }, speed: 2, environment: Self.silent)
        let events = try await collect(engine) { self.spans($0).count >= 4 }
        let read = spans(events)
        #expect(read.map(\.place) == [.element(fragment: "c1p1", until: "c1p2"), .element(fragment: "c1p2", until: "c1p3"),
                                      .element(fragment: "c1p3", until: nil), .element(fragment: "c2p1", until: "c2p2")])
        #expect(read.map(\.href) == ["OPS/chapter1.xhtml", "OPS/chapter1.xhtml", "OPS/chapter1.xhtml", "OPS/chapter2.xhtml"])
        #expect(read.map(\.number) == [1, 2, 3, 4] && read.first?.total == 6)
        engine.stop()
        var after = 0
        for await _ in engine.events { after += 1 }
        #expect(after < 10, "the events end once stopped")
    }

    /// Starting from a page: the first phrase whose element is on it or after it, else the next
    /// chapter's first.
    @Test func theFirstPhraseIsTheFirstOnThePage() {
        let phrases: [(href: String, fragment: String?)] = [("a", "p1"), ("a", "p2"), ("a", "p3"), ("b", "q1")]
        let anchors = ["p1": 0, "p2": 40, "p3": 90]
        let chapterOf: (String) -> Int? = { ["a": 0, "b": 1][$0] }
        #expect(OverlayReadAloud.startIndex(phrases, chapter: 0, pageStart: 0, anchors: anchors, chapterOf: chapterOf) == 0)
        #expect(OverlayReadAloud.startIndex(phrases, chapter: 0, pageStart: 41, anchors: anchors, chapterOf: chapterOf) == 2)
        #expect(OverlayReadAloud.startIndex(phrases, chapter: 0, pageStart: 200, anchors: anchors, chapterOf: chapterOf) == 3)
        #expect(OverlayReadAloud.startIndex(phrases, chapter: 1, pageStart: 0, anchors: [:], chapterOf: chapterOf) == 3)
    }

    /// The speech engine says the chapter's sentences in order, each starting where the one
    /// before ended, from the sentence holding the place given.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libespeak-ng.so.1")
                   || FileManager.default.fileExists(atPath: "/usr/lib/aarch64-linux-gnu/libespeak-ng.so.1"), "espeak-ng is not installed"))
    func speechSentencesComeInOrder() async throws {
        let publication = try await open(try narratedBook())
        defer { publication.close() }
        let engine = try await SpeechReadAloud.start(publication: publication, at: Locator(href: "OPS/chapter1.xhtml", mediaType: .xhtml),
                                                     speed: 3, environment: Self.silent)
        let events = try await collect(engine) { self.spans($0).count >= 3 }
        engine.stop()
        let ranges = spans(events).compactMap { span -> Range<Int>? in if case .range(let range) = span.place { range } else { nil } }
        #expect(ranges.count == 3 && ranges.first?.lowerBound == 0, "\(events)")
        for (previous, next) in zip(ranges, ranges.dropFirst()) { #expect(previous.upperBound == next.lowerBound) }
        #expect(spans(events).allSatisfy { $0.href == "OPS/chapter1.xhtml" })
    }

    /// The whole reader: `r` reads from the page, the phrase read is drawn highlighted, the
    /// status line says what plays, the second chapter is shown when its phrase comes, and
    /// Escape stops (the highlight and the status go).
    @Test func theReaderFollowsTheNarrationAndStops() async throws {
        let ui = try InProcessApp("read-aloud-app", rows: 12, columns: 100)
        ui.app.startReader(path: try narratedBook(), on: ui.canvas)
        try await ui.waitFor("The first sentence is read first.")
        ui.press(.character("r"))
        let first = try await ui.waitUntil("the first phrase highlighted") { _ in self.isHighlighted("The first sentence", in: ui.canvas) }
        #expect(first.contains("▶ Read aloud · narration · 1/6"), "\(first)")
        try await ui.waitUntil("the second phrase highlighted, not the first") { _ in
            self.isHighlighted("Then the second", in: ui.canvas) && !self.isHighlighted("The first sentence", in: ui.canvas)
        }
        ui.press(.character("+"))
        try await ui.waitFor("1.25×")
        let second = try await ui.waitUntil("the next chapter shown, its phrase highlighted") { _ in
            self.isHighlighted("A second chapter starts", in: ui.canvas)
        }
        #expect(!second.contains("The third plays"), "the page turned to the next chapter:\n\(second)")
        ui.press(.escape)
        let stopped = try await ui.waitFor("Stopped reading aloud.")
        #expect(!isHighlighted("A second chapter starts", in: ui.canvas), "\(stopped)")
        #expect(!stopped.contains("▶ Read aloud"))
    }

    /// `,` and `.` move to the previous and next phrase (paused here, so that only the keys move
    /// it); the place saved when reading stops and the book closes is that phrase, so that the
    /// book reopens on it rather than on the top of the page it was on.
    @Test func phraseKeysMoveAndThePlaceSavedIsThePhrase() async throws {
        let path = try narratedBook()
        let library = Library(store: try LibraryStore(path: Fixtures.temporaryDirectory("read-aloud-place") + "/library.sqlite"))
        let ui = try InProcessApp("read-aloud-place-1", rows: 12, columns: 100, library: library)
        ui.app.startReader(path: path, on: ui.canvas)
        try await ui.waitFor("The first sentence is read first.")
        ui.press(.character("r"))
        try await ui.waitUntil("the first phrase highlighted") { _ in self.isHighlighted("The first sentence", in: ui.canvas) }
        ui.press(.character("r"))
        try await ui.waitFor("❚❚ Read aloud")
        ui.press(.character("."))
        try await ui.waitUntil("the second phrase highlighted") { _ in self.isHighlighted("Then the second", in: ui.canvas) }
        ui.press(.character("."))
        try await ui.waitUntil("the third phrase highlighted") { _ in self.isHighlighted("The third plays", in: ui.canvas) }
        ui.press(.character(","))
        let back = try await ui.waitUntil("the second phrase highlighted again") { _ in
            self.isHighlighted("Then the second", in: ui.canvas) && !self.isHighlighted("The third plays", in: ui.canvas)
        }
        #expect(back.contains("❚❚ Read aloud · narration · 2/6"), "\(back)")
        ui.press(.escape)
        try await ui.waitFor("Stopped reading aloud.")
        ui.press(.character("q"))
        #expect(ui.app.isQuitting)

        let again = try InProcessApp("read-aloud-place-2", rows: 12, columns: 100, library: library)
        again.app.startReader(path: path, on: again.canvas)
        let page = try await again.waitFor("Then the second follows it.")
        let first = page.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
        #expect(first == "Then the second follows it.", "reopened on the phrase:\n\(page)")
    }

    /// The narrated book with its first two phrases in one paragraph (one line on the page).
    func sharedParagraphBook() throws -> String {
        try variant("read-aloud-shared-paragraph", ["OPS/chapter1.xhtml": {
            $0.replacingOccurrences(of: "<p id=\"c1p1\">The first sentence is read first.</p>\n<p id=\"c1p2\">Then the second follows it.</p>",
                                    with: "<p><span id=\"c1p1\">The first sentence is read first.</span> <span id=\"c1p2\">Then the second follows it.</span></p>")
        }])
    }

    /// The narrated book with `edits` made to some of its files (each edit must change its file).
    func variant(_ name: String, _ edits: [String: (String) -> String]) throws -> String {
        let path = Fixtures.temporaryDirectory(name) + "/book.epub"
        var entries = [ZipBuilder.Entry("mimetype", "application/epub+zip", compression: .stored),
                       ZipBuilder.Entry("META-INF/container.xml", TestEPUBs.containerXML)]
        for resource in MediaOverlayEPUB.resources() {
            var data = resource.data
            if let edit = edits[resource.path] {
                let text = String(decoding: data, as: UTF8.self)
                let edited = edit(text)
                #expect(edited != text, "\(resource.path) was edited")
                data = Data(edited.utf8)
            }
            entries.append(ZipBuilder.Entry(resource.path, data))
        }
        try ZipBuilder.write(entries, to: path)
        return path
    }

    /// Reopened on the second phrase of a paragraph whose first phrase shares its line, `r`
    /// reads from that second phrase (the place saved), not from the line's start.
    @Test func readingAfterAReopeningStartsAtThePhraseSaved() async throws {
        let path = try sharedParagraphBook()
        let library = Library(store: try LibraryStore(path: Fixtures.temporaryDirectory("read-aloud-reopen-phrase") + "/library.sqlite"))
        let ui = try InProcessApp("read-aloud-reopen-phrase-1", rows: 12, columns: 100, library: library)
        ui.app.startReader(path: path, on: ui.canvas)
        try await ui.waitFor("The first sentence is read first. Then the second follows it.")
        ui.press(.character("r"))
        try await ui.waitUntil("the first phrase highlighted") { _ in self.isHighlighted("The first sentence", in: ui.canvas) }
        ui.press(.character("r"))
        try await ui.waitFor("❚❚ Read aloud")
        ui.press(.character("."))
        try await ui.waitFor("❚❚ Read aloud · narration · 2/6")
        ui.press(.escape)
        try await ui.waitFor("Stopped reading aloud.")
        ui.press(.character("q"))
        #expect(ui.app.isQuitting)

        let again = try InProcessApp("read-aloud-reopen-phrase-2", rows: 12, columns: 100, library: library)
        again.app.startReader(path: path, on: again.canvas)
        try await again.waitFor("The first sentence is read first. Then the second follows it.")
        again.press(.character("r"))
        let first = try await again.waitUntil("a phrase highlighted") { _ in
            self.isHighlighted("The first sentence", in: again.canvas) || self.isHighlighted("Then the second", in: again.canvas)
        }
        #expect(isHighlighted("Then the second", in: again.canvas) && !isHighlighted("The first sentence", in: again.canvas),
                "the first phrase read is the one saved:\n\(first)")
        again.press(.escape)
        try await again.waitFor("Stopped reading aloud.")
    }

    /// `:sleep 20` stops the reading 20 minutes later on the sleep timer's clock (a test clock
    /// here, moved by hand): the status line counts the minutes left, then the reading stops.
    @Test func theSleepTimerStopsTheReading() async throws {
        let clock = SleepTestClock()
        ReadAloudSession.clock = { clock.now }
        defer { ReadAloudSession.clock = ReadAloudSleep.monotonic }
        let ui = try InProcessApp("read-aloud-sleep", rows: 12, columns: 120)
        ui.app.startReader(path: try narratedBook(), on: ui.canvas)
        try await ui.waitFor("The first sentence is read first.")
        ui.press(.character("r"))
        try await ui.waitFor("▶ Read aloud")
        // Paused, so that the narration does not end first.
        ui.press(.character("r"))
        try await ui.waitFor("❚❚ Read aloud")
        ui.press(.character(":"))
        ui.type("sleep 20")
        ui.press(.enter)
        try await ui.waitFor("⏾ 20 min")
        clock.now += 19 * 60 + 1
        try await ui.waitFor("⏾ 1 min")
        clock.now += 60
        let stopped = try await ui.waitFor("Sleep timer: stopped reading aloud after 20 min.")
        #expect(!stopped.contains("Read aloud ·"), "\(stopped)")
        #expect(ReadAloudSleep.minutes(in: "sleep 1h") == nil && ReadAloudSleep.minutes(in: "sleep off") == .some(nil)
                && ReadAloudSleep.minutes(in: "sleep 45") == 45 && ReadAloudSleep.minutes(in: "50%") == nil)
    }

    /// The previous-sentence key goes back: the sentence said after it starts before the last one heard.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libespeak-ng.so.1")
                   || FileManager.default.fileExists(atPath: "/usr/lib/aarch64-linux-gnu/libespeak-ng.so.1"), "espeak-ng is not installed"))
    func thePreviousSentenceKeyGoesBack() async throws {
        let publication = try await open(try narratedBook())
        defer { publication.close() }
        let engine = try await SpeechReadAloud.start(publication: publication, at: Locator(href: "OPS/chapter1.xhtml", mediaType: .xhtml),
                                                     speed: 1, environment: Self.silent)
        // Where each sentence starts: its chapter and offset (the next chapter's start at 0 again).
        var starts: [String] = []
        var after: [String] = []
        let deadline = ContinuousClock.now + .seconds(600)
        for await event in engine.events {
            guard case .span(let span) = event, case .range(let range) = span.place else { continue }
            let start = "\(span.href)@\(range.lowerBound)"
            if starts.count < 2 { starts.append(start) } else { after.append(start) }
            if starts.count == 2, after.isEmpty, start == starts[1] { engine.step(by: -1) }
            // A span already on its way when the key came may come first.
            if after.contains(starts[0]) || after.count >= 3 || ContinuousClock.now > deadline { break }
        }
        engine.stop()
        #expect(after.contains(starts[0]), "the first sentence again after the second: \(starts) then \(after)")
    }

    /// A phrase with text and no audio (c2p3, the book's last) is said by espeak-ng inside the
    /// narration, and the narration ends after it.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libespeak-ng.so.1")
                   || FileManager.default.fileExists(atPath: "/usr/lib/aarch64-linux-gnu/libespeak-ng.so.1"), "espeak-ng is not installed"))
    func aTextOnlyPhraseIsSpoken() async throws {
        let publication = try await open(try narratedBook())
        defer { publication.close() }
        let chapters = ["OPS/chapter1.xhtml": 0, "OPS/chapter2.xhtml": 1]
        let engine = try await OverlayReadAloud.start(publication: publication, chapter: 1, pageStart: 0, anchors: [:],
                                                      chapterOf: { chapters[$0] }, speed: 3, environment: Self.silent)
        let events = try await collect(engine) { $0.last == .finished }
        engine.stop()
        let read = spans(events).map(\.place)
        #expect(read.last == .element(fragment: "c2p3", until: nil) && events.last == .finished, "\(events)")
        #expect(engine.spokenPhrases == [5], "the text-only phrase was given to speech")
    }

    /// The words read aloud have colours of their own in every built-in theme (neither a search
    /// match's nor the current match's); a theme without them paints them as its current match
    /// (the phrase) and match (the word), so that a person's older theme still shows them.
    @Test func readAloudHasItsOwnThemeColours() throws {
        for name in BuiltinThemes.order {
            let palette = try Theme(name: name, toml: try #require(BuiltinThemes.files[name])).palette(colorCount: 256)
            let phrase = palette[.readAloud].background, word = palette[.readAloudWord].background
            #expect(phrase != word && phrase != .default, "\(name)")
            #expect(![palette[.currentMatch].background, palette[.match].background].contains(phrase), "\(name)")
        }
        let older = try Theme(name: "older", toml: "[match]\nbg = 178\n[current_match]\nbg = 208\n").palette(colorCount: 256)
        #expect(older[.readAloud].background == .indexed(208) && older[.readAloudWord].background == .indexed(178))
        let none = try Theme(name: "older", toml: "").palette(colorCount: 0)
        #expect(none[.readAloud].attributes.contains(.reverse))
    }

    /// Whether the cells of `text` on the canvas are drawn in reverse video (the phrase read;
    /// the canvas has no colours).
    func isHighlighted(_ text: String, in canvas: MemoryCanvas) -> Bool {
        for (row, line) in canvas.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let range = line.range(of: text) else { continue }
            let column = line.distance(from: line.startIndex, to: range.lowerBound)
            return canvas.style(row: row, column: column)?.attributes.contains(.reverse) == true
        }
        return false
    }
}

/// A clock moved by the test.
@MainActor final class SleepTestClock {
    var now = 1_000.0
}
