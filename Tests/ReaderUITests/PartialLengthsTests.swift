import Bookshelf
import Foundation
@testable import ReaderUI
import Synchronization
import Terminal
import Testing
import TestSupport
import TextLayout

/// A book whose count never completes (a part that cannot be read) or is closed before its
/// count ends keeps the lengths counted so far (#28): reopened in the middle of its long
/// chapter, it shows that chapter from its first part instead of converting it whole first.
@MainActor @Suite struct PartialLengthsTests {
    @Test func aBookWithAnUnreadablePartReopensALongChapterFromItsFirstPart() async throws {
        let folder = Fixtures.temporaryDirectory("partial-lengths")
        let path = folder + "/long.epub"
        let identifier = "urn:test:partial-lengths-\(UUID().uuidString)"
        let paragraphs = (1...3_000).map { "<p>Paragraph \($0): the river sweats oil and tar; the barges drift with the turning tide.</p>" }
        try TestEPUBs.write(title: "Long", identifier: identifier, body: paragraphs.joined(), missingChapters: ["c2.xhtml"], to: path)
        let library = Library(store: try LibraryStore(path: folder + "/library.sqlite"))
        let identity = ContentIdentity.of(path: path, identifier: identifier)

        // First opening: read until counted (as far as it goes), go to the middle, quit.
        let first = try InProcessApp("partial-lengths-1", library: library)
        first.app.startReader(path: path, on: first.canvas)
        try await first.waitFor("Paragraph 1:")
        try await first.waitUntil("the count done (a percentage on the status line)") { $0.contains("0%") }
        first.type("50%")
        try await first.waitUntil("the middle of the chapter") { $0.contains("50%") || $0.contains("49%") || $0.contains("51%") }
        first.press(.character("q"))
        #expect(first.app.isQuitting)
        // The chapter's length is kept, the part that cannot be read marked as not counted.
        let stored = try #require(try await library.textLengths(identity: identity))
        #expect(stored.count == 2 && stored[0] > 100_000 && stored[1] == -1, "\(stored)")

        // Reopening: the first thing handed over is a first part, much shorter than the chapter.
        let events = Mutex<[ConversionObserver.Event]>([])
        let observer = ConversionObserver { event in events.withLock { $0.append(event) } }
        let second = try InProcessApp("partial-lengths-2", library: library)
        ConversionObserver.$current.withValue(observer) {
            second.app.startReader(path: path, on: second.canvas)
        }
        let page = try await second.waitUntil("the middle page again") { $0.contains("Paragraph 1") && !$0.contains("Paragraph 1:") }
        let firstEvent = try #require(events.withLock { $0.first })
        guard case .firstPart(_, let converted, _) = firstEvent else {
            Issue.record("the chapter was converted whole before the first page: \(firstEvent)\n\(page)")
            return
        }
        #expect(converted < stored[0] * 3 / 4, "converted \(converted) of \(stored[0])")
    }
}
