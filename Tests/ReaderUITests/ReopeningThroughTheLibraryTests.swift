import Foundation
import Testing
@testable import ReaderUI
import TextLayout
import TestSupport

/// A reopening in the middle of a long chapter, through the interface and its library (#28
/// item 1): the first opening keeps the chapter's checkpoints and length in the library, and
/// the second reads them back, so that its first page parses a stretch of the source, not the
/// text up to the place. ``ReopeningSourceBytesTests`` hands the checkpoints to the book
/// directly; this one goes through the library as a person's second opening does.
@MainActor
struct ReopeningThroughTheLibraryTests {
    /// The number of the first "Paragraph N" on the canvas, the top of the page shown.
    static func firstParagraph(_ screen: String) -> Int? {
        guard let range = screen.range(of: #"Paragraph \d+ of"#, options: .regularExpression) else { return nil }
        return Int(screen[range].dropFirst("Paragraph ".count).dropLast(" of".count))
    }

    @Test func aPlaceInTheMiddleReopensFromTheCheckpointsTheLibraryKept() async throws {
        let path = try ReopeningSourceBytesTests.book()
        let ui = try InProcessApp("reopening-through-library", rows: 24, columns: 80)
        let library = try #require(ui.library)
        ui.app.startBookshelf(on: ui.canvas)
        try await ui.waitUntil("the bookshelf shown") { !$0.isEmpty }
        ui.app.openPublication(path: path, entry: nil)
        try await ui.waitFor("Paragraph 1 of")
        ui.type("50%")
        let middle = try await ui.waitUntil("the middle of the chapter shown") { (Self.firstParagraph($0) ?? 0) > 5_000 }
        let left = try #require(Self.firstParagraph(middle))
        let identity = try #require(ui.app.currentBook?.identity)
        // Kept once the chapter was converted whole (checkpoints) and the book counted (lengths).
        try await StateWait.until("the chapter's checkpoints and the book's lengths in the library") {
            let checkpoints = (try? await library.chapterCheckpoints(identity: identity)) ?? [:]
            let lengths = try? await library.textLengths(identity: identity)
            return checkpoints[0]?.isEmpty == false && lengths != nil
        }
        ui.press(.character("q"))
        try await StateWait.until("back on the bookshelf") { ui.app.currentBook == nil }

        let log = ReopeningConversionTests.ConversionLog()
        ConversionObserver.$current.withValue(log.observer) {
            ui.app.openPublication(path: path, entry: nil)
        }
        let reopened = try await ui.waitUntil("the place left shown again") { Self.firstParagraph($0) == left }
        #expect(reopened.contains("Paragraph \(left) of"))
        guard case .firstPart(_, _, let bytes)? = log.all.first else {
            Issue.record("the reopening handed over no first part first: \(log.all)")
            return
        }
        #expect(bytes <= ContentDocumentLoader.firstPartMinimumBytes,
                "parsed \(bytes) bytes of the source before the first page: \(log.all)")
        #expect(ui.app.currentBook?.keptCheckpoints[0]?.isEmpty == false, "the checkpoints were not read back")
    }
}
