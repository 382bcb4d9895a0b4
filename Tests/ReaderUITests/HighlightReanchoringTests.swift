import Annotations
import Bookshelf
import Foundation
@testable import ReaderUI
import Terminal
import Testing
import TestSupport

/// Highlights whose stored range no longer holds their quote (a new edition of the file):
/// drawn where the quote is, the range saved back; one whose quote is nowhere is not drawn
/// and is listed as orphaned (#31).
@MainActor @Suite struct HighlightReanchoringTests {
    static let book = Fixtures.sample("epub/idpf-wasteland.epub")

    /// A reader on a fresh library named `name` in which `word` (found by a search) was
    /// highlighted: the reader, left open on it; the highlight as saved; its book's id.
    static func highlighting(_ word: String, in name: String) async throws -> (ui: HighlightUI, made: Annotation, entry: Int64) {
        let ui = try HighlightUI(name, columns: 72, colorCount: 0)
        ui.app.startReader(path: book, on: ui.canvas)
        try await ui.waitFor("April is the cruellest month", "p. 1/")
        try await ui.search(word)
        ui.press(.character("v"))
        try await ui.waitFor("SELECT \(word.count) characters")
        ui.press(.character("H"))
        try await ui.waitFor("Highlight —")
        ui.press(.escape, .escape)
        let made = try await ui.store.waitForCount(1)[0]
        let entry = try #require(ui.app.currentBook?.entry?.id)
        return (ui, made, entry)
    }

    @Test func aMovedQuoteIsDrawnWhereItIsAndAnOrphanIsListed() async throws {
        // A highlight made in the reader gives the real range of "cruellest".
        let (first, made, entry) = try await Self.highlighting("cruellest", in: "reanchor-make")
        first.press(.character("q"))
        let range = try #require(made.target.textRange)

        // As a new edition would leave them: the range off by 7 characters, and another whose
        // quote is in no edition, its range on "April" (13 characters before).
        var moved = made
        moved.target.textRange = range.lowerBound + 7..<range.upperBound + 7
        var orphan = made
        orphan.id = "orphan-of-an-old-edition"
        orphan.target.quote = TextQuote(exact: "words of another edition", prefix: "", suffix: "")
        orphan.target.textRange = range.lowerBound - 13..<range.lowerBound - 8
        let stores = first.store.factory(entry, nil)
        try await stores.save(moved)
        try await stores.save(orphan)

        let again = try HighlightUI("reanchor-open", columns: 72, colorCount: 0, library: first.library, store: first.store)
        again.app.startReader(path: Self.book, on: again.canvas)
        try await again.waitFor("April is the cruellest month", "p. 1/")
        try await again.waitUntil("the moved highlight drawn on its quote") { _ in
            again.style(of: "cruellest")?.attributes.contains(.reverse) == true
        }
        #expect(again.style(of: "April")?.attributes.contains(.reverse) != true, "the orphan is not drawn:\n\(again.canvas.text)")
        let saved = try await again.store.waitUntil { $0.first { $0.id == made.id }?.target.textRange == range }
        #expect(saved.first { $0.id == made.id }?.modified == made.modified, "a correction leaves the modified time")
        again.press(.character("A"))
        try await again.waitFor("— (orphaned) “words of anot")
        #expect(!again.canvas.text.contains("(orphaned) “cruellest”"))
    }

    /// A protected book's quote may be sealed (nil here): nothing to check it by, so it is
    /// drawn by its range, as stored.
    @Test func aSealedQuoteIsDrawnByItsRange() async throws {
        let (first, made, entry) = try await Self.highlighting("cruellest", in: "reanchor-sealed-make")
        var sealed = made
        first.press(.character("q"))
        let range = try #require(sealed.target.textRange)
        sealed.target.quote = nil
        sealed.target.quoteIsSealed = true
        sealed.target.textRange = range.lowerBound - 13..<range.lowerBound - 8
        try await first.store.factory(entry, nil).save(sealed)

        let again = try HighlightUI("reanchor-sealed-open", columns: 72, colorCount: 0, library: first.library, store: first.store)
        again.app.startReader(path: Self.book, on: again.canvas)
        try await again.waitFor("April is the cruellest month", "p. 1/")
        try await again.waitUntil("the sealed highlight drawn by its range") { _ in
            again.style(of: "April")?.attributes.contains(.reverse) == true
        }
        #expect(again.style(of: "cruellest")?.attributes.contains(.reverse) != true)
        again.press(.character("A"))
        try await again.waitFor("(sealed: open the book", absent: ["(orphaned)"])
    }

    /// Enter on an orphan in the list goes to its last known place (its progression in its
    /// chapter), not to its stale range, and says that its quote was not found.
    @Test func jumpingToAnOrphanGoesToItsLastKnownPlace() async throws {
        let (first, made, entry) = try await Self.highlighting("Phlebas", in: "reanchor-orphan-jump")
        // Left at the start, where the book opens again.
        first.press(.character("g"))
        try await first.waitFor("April is the cruellest month", "p. 1/")
        first.press(.character("q"))
        let range = try #require(made.target.textRange)
        #expect(made.target.progression != nil)

        // Its quote gone from this edition, its range left on the first page ("April").
        var orphan = made
        orphan.target.quote = TextQuote(exact: "words of another edition", prefix: "", suffix: "")
        orphan.target.textRange = 0..<5
        try await first.store.factory(entry, nil).save(orphan)
        #expect(range.lowerBound > 1000)

        let again = try HighlightUI("reanchor-orphan-open", columns: 72, colorCount: 0, library: first.library, store: first.store)
        again.app.startReader(path: Self.book, on: again.canvas)
        try await again.waitFor("April is the cruellest month", "p. 1/")
        // Read and checked against the chapter shown: found orphaned.
        try await again.waitUntil("the highlight found orphaned") { _ in
            again.app.currentBook?.highlights.orphans.contains(orphan.id) == true
        }
        again.press(.character("A"))
        try await again.waitFor("(orphaned) “words of anot")
        again.press(.enter)
        try await again.waitFor("Phlebas", absent: ["April is the cruellest month", "Annotations ("])
        try await again.waitFor("not found")
    }
}
