import Bookshelf
import FoundationEssentials
import LibrarySearch
import Shared
import Testing
import TestSupport

@Suite struct LibraryWriterIndexingTests {
    /// Importing and indexing through the interface's one writer (``Library``) take their
    /// turns with the reader's position saves: the book is found by its text and keeps the
    /// last position saved while it was being indexed.
    @Test func importsAndIndexesThroughTheOneWriter() async throws {
        let library = try Library(path: Fixtures.temporaryDirectory("library-writer-index") + "/library.sqlite")
        let outcome = await LibraryImporter(library: library, open: streamerOpening).importFile(Fixtures.sample(LibraryIndexTests.kusamakura))
        let entry = try #require(outcome.entry)
        let indexing = Task { await LibraryIndexer(library: library, open: streamerOpening, parallelism: 1).indexPending() }
        for step in 1...50 {
            library.queuePosition(id: entry.id, locator: "{\"step\":\(step)}", progress: Double(step) / 50) { error in
                Issue.record("write failed: \(error.userMessage)")
            }
        }
        let report = await indexing.value
        #expect(report.indexed.count == 1 && report.failed.isEmpty)
        try library.savePositionNow(id: entry.id, locator: "{\"closed\":true}", progress: nil)
        #expect(try await library.entry(identity: entry.identity)?.locator == "{\"closed\":true}")
        #expect(try await library.entry(identity: entry.identity)?.progress == 1)
        let hits = try await library.searchFullText(try #require(FullTextQuery("こう考えた")))
        #expect(hits.first?.publication.id == entry.id)
    }
}
