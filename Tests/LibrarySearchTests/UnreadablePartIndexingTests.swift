import Bookshelf
import FoundationEssentials
import LibrarySearch
import Testing
import TestSupport

/// A part of a book that cannot be read is said in the indexing report, not indexed as empty
/// without a word.
@Suite struct UnreadablePartIndexingTests {
    /// An EPUB whose spine lists `c2.xhtml`, which the archive does not hold.
    static func writeBookMissingItsSecondChapter(to path: String) throws {
        try TestEPUBs.write(title: "Missing Chapter", identifier: "urn:test:missing-chapter",
                            body: "<p>The quartermaster counted the lanterns.</p>", missingChapters: ["c2.xhtml"], to: path)
    }

    @Test func aChapterThatCannotBeReadIsReportedAndTheRestIsSearchable() async throws {
        let folder = Fixtures.temporaryDirectory("lectern-unreadable-part")
        let path = folder + "/missing-chapter.epub"
        try Self.writeBookMissingItsSecondChapter(to: path)
        let store = try LibraryStore(path: folder + "/library.sqlite")
        let outcome = await LibraryImporter(store: store, open: streamerOpening).importFile(path)
        _ = try #require(outcome.entry, "\(outcome.error ?? "")")

        let report = await LibraryIndexer(store: store, open: streamerOpening).indexPending()
        #expect(report.indexed.isEmpty)
        let failure = try #require(report.failed.first)
        #expect(failure.title == "Missing Chapter")
        #expect(failure.reason.contains("c2.xhtml"))
        // What could be read is searchable, and the book is not indexed again on every run.
        #expect(try search(store, "quartermaster").count == 1)
        #expect(try store.fullTextCoverage() == FullTextCoverage(indexed: 1, pending: 0))
    }
}
