import Annotations
import Bookshelf
import Foundation
@testable import ReaderUI
import Terminal
import Testing
import TestSupport

/// Highlights and notes in the reader (#31), the whole interface in-process on a canvas: made
/// from a search match or a selection, drawn in their colour at any width, under `NO_COLOR`
/// in reverse video, a note written in the editor across a resize, opened from hint mode,
/// deleted, listed and jumped to.
@MainActor @Suite struct HighlightInProcessTests {
    static let book = Fixtures.sample("epub/idpf-wasteland.epub")

    @Test func aSearchMatchHighlightedKeepsItsColourAtAnyWidth() async throws {
        let ui = try HighlightUI("highlight-widths", columns: 72, colorCount: 256)
        ui.app.startReader(path: Self.book, on: ui.canvas)
        try await ui.waitFor("April is the cruellest month", "p. 1/")
        try await ui.search("cruellest")
        ui.press(.character("H"))
        try await ui.waitFor("Highlight —", "1 yellow")
        ui.press(.escape)
        // Escape again: the search's own marks go, the highlight stays.
        ui.press(.escape)
        try await ui.waitFor("April is the cruellest month", absent: ["Highlight —"])
        #expect(ui.style(of: "cruellest")?.background == .indexed(228), "drawn with the yellow background:\n\(ui.canvas.text)")
        #expect(ui.style(of: "April")?.background != .indexed(228), "only the highlighted words")
        let stored = try await ui.store.waitForCount(1)
        #expect(stored[0].target.quote?.exact == "cruellest")
        #expect(stored[0].target.href.hasSuffix(".xhtml") || stored[0].target.href.hasSuffix(".html"))
        // Narrower: laid out again, the highlight follows the word.
        ui.canvas.resize(rows: 24, columns: 40)
        ui.press(.resize)
        try await ui.waitUntil("the page laid out at 40 columns") { screen in
            screen.split(separator: "\n").allSatisfy { $0.count <= 40 } && screen.contains("cruellest")
        }
        #expect(ui.style(of: "cruellest")?.background == .indexed(228), "still yellow at 40 columns:\n\(ui.canvas.text)")
        // Another colour and the underline style, from its popup (H on the page opens it).
        ui.press(.character("H"))
        try await ui.waitFor("Highlight —")
        ui.press(.character("3"), .character("s"), .escape)
        try await ui.waitFor("cruellest", absent: ["Highlight —"])
        let restyled = try #require(ui.style(of: "cruellest"))
        #expect(restyled.attributes.contains(.underline) && restyled.foreground == .indexed(33), "blue underline: \(restyled)")
        let changed = try await ui.store.waitUntil { $0.first?.color == .blue && $0.first?.style == .underline }
        #expect(changed.count == 1)
        // Struck through: curses has no attribute for it, each letter carries U+0336.
        ui.press(.character("H"))
        try await ui.waitFor("Highlight —")
        ui.press(.character("s"), .escape)
        try await ui.waitFor("c\u{336}r\u{336}u\u{336}e\u{336}l\u{336}l\u{336}e\u{336}s\u{336}t\u{336}", absent: ["Highlight —"])
    }

    /// Under `NO_COLOR` (a canvas without colours) a background highlight is reverse video;
    /// it is read back from the library when the book opens again.
    @Test func withoutColoursAHighlightIsReverseVideoAndComesBack() async throws {
        let ui = try HighlightUI("highlight-mono", columns: 72, colorCount: 0)
        ui.app.startReader(path: Self.book, on: ui.canvas)
        try await ui.waitFor("April is the cruellest month", "p. 1/")
        try await ui.search("cruellest")
        ui.press(.character("v"))
        try await ui.waitFor("SELECT 9 characters")
        ui.press(.character("H"))
        try await ui.waitFor("Highlight —")
        ui.press(.escape, .escape)
        try await ui.waitFor("April is the cruellest month", absent: ["Highlight —", "SELECT"])
        #expect(ui.style(of: "cruellest")?.attributes.contains(.reverse) == true, "\(ui.canvas.text)")
        _ = try await ui.store.waitForCount(1)
        ui.press(.character("q"))
        #expect(ui.app.isQuitting)

        let again = try HighlightUI("highlight-mono-again", columns: 72, colorCount: 0, library: ui.library, store: ui.store)
        again.app.startReader(path: Self.book, on: again.canvas)
        try await again.waitFor("April is the cruellest month", "p. 1/")
        try await again.waitUntil("the stored highlight drawn") { _ in again.style(of: "cruellest")?.attributes.contains(.reverse) == true }
        #expect(again.style(of: "April")?.attributes.contains(.reverse) != true)
    }

    /// A note of several lines, kept across a resize of the window while it is typed.
    @Test func aNoteOfSeveralLinesSurvivesAResize() async throws {
        let ui = try HighlightUI("highlight-note", columns: 72, colorCount: 256)
        ui.app.startReader(path: Self.book, on: ui.canvas)
        try await ui.waitFor("April is the cruellest month", "p. 1/")
        try await ui.search("cruellest")
        ui.press(.character("v"))
        ui.press(.character("n"))
        try await ui.waitFor("Note — enter new line · C-s save · esc cancel")
        ui.type("Eliot's April")
        ui.press(.enter)
        ui.type("breeds lilacs")
        ui.canvas.resize(rows: 20, columns: 50)
        ui.press(.resize)
        let resized = try await ui.waitFor("Eliot's April", "breeds lilacs")
        #expect(resized.contains("Note —"), "the editor is still open:\n\(resized)")
        ui.press(.control("s"))
        try await ui.waitFor("Note saved.")
        let stored = try await ui.store.waitUntil { $0.first?.note != nil }
        #expect(stored.first?.note == "Eliot's April\nbreeds lilacs")
        // Opened again: the note is shown, and Escape in the editor keeps it.
        ui.press(.escape)
        ui.press(.character("H"))
        try await ui.waitFor("Highlight —", "Eliot's April", "breeds lilacs")
        ui.press(.character("n"))
        try await ui.waitFor("Note —")
        ui.type(" changed")
        ui.press(.escape)
        try await ui.waitFor("Note not changed.")
        #expect(await ui.store.all().first?.note == "Eliot's April\nbreeds lilacs")
    }

    /// Hint mode labels the highlight; its label opens it; d then y deletes it.
    @Test func hintModeOpensAHighlightWhichIsDeleted() async throws {
        let ui = try HighlightUI("highlight-hints", columns: 72, colorCount: 0)
        ui.app.startReader(path: Self.book, on: ui.canvas)
        try await ui.waitFor("April is the cruellest month", "p. 1/")
        try await ui.search("cruellest")
        ui.press(.character("H"))
        try await ui.waitFor("Highlight —")
        ui.press(.escape, .escape)
        _ = try await ui.store.waitForCount(1)
        ui.press(.character("f"))
        let hints = try await ui.waitFor("1 highlights")
        let mode = try #require(ui.app.currentBook?.hints, "\(hints)")
        let index = try #require(mode.targets.firstIndex(where: { $0.annotationID != nil }))
        let label = mode.labels[index]
        ui.type(label)
        try await ui.waitFor("Highlight —", "“cruellest”")
        ui.press(.character("d"))
        try await ui.waitFor("Delete this highlight?")
        ui.press(.character("y"))
        try await ui.waitFor("Highlight deleted.", absent: ["Highlight —"])
        #expect(ui.style(of: "cruellest")?.attributes.contains(.reverse) != true)
        _ = try await ui.store.waitUntil { $0.isEmpty }
    }

    /// The list of the book's annotations: filtered as typed, Enter goes there (a jump: back
    /// returns).
    @Test func theListFiltersAndJumps() async throws {
        let ui = try HighlightUI("highlight-list", columns: 80, colorCount: 0)
        ui.app.startReader(path: Self.book, on: ui.canvas)
        try await ui.waitFor("April is the cruellest month", "p. 1/")
        try await ui.search("cruellest")
        ui.press(.character("H"))
        try await ui.waitFor("Highlight —")
        ui.press(.escape)
        try await ui.search("burnished throne")
        try await ui.waitFor("burnished throne")
        ui.press(.character("H"))
        try await ui.waitFor("Highlight —")
        ui.press(.escape, .escape)
        _ = try await ui.store.waitForCount(2)
        ui.press(.character("A"))
        try await ui.waitFor("Annotations (2/2)", "“cruellest”", "“burnished throne”")
        ui.type("cruel")
        try await ui.waitFor("Annotations (1/2)", "Filter: cruel", absent: ["“burnished throne”"])
        ui.press(.enter)
        try await ui.waitFor("April is the cruellest month", absent: ["Annotations ("])
        ui.press(.backspace)
        try await ui.waitFor("burnished throne", absent: ["April is the cruellest month"])
    }
}
