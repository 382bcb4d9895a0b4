import Annotations
import Bookshelf
import Foundation
import LCP
import LCPSQLite
import LibSQLite
import Shared
import Testing
import TestSupport

/// A library database written before named migrations (``LegacyLibraryFixture``) opens with
/// today's code, keeps everything it held, and its search index still answers.
@Suite struct LegacyLibraryMigrationTests {
    /// Every module's steps, as the composition root opens the file.
    static let migrations = [LibraryStore.migrations, CatalogStore.migrations, LCPSQLiteStore.migrations]

    /// A copy of the fixture (the committed file is never written).
    func copyOfFixture() throws -> String {
        let path = Fixtures.temporaryDirectory("legacy-library") + "/library.sqlite"
        try FileManager.default.copyItem(atPath: LegacyLibraryFixture.committedPath, toPath: path)
        return path
    }

    @Test func everyPositionBookmarkCatalogLicenseAndConsumedRightIsKept() throws {
        let queue = try SQLiteQueue(path: try copyOfFixture(), migrations: Self.migrations)
        let library = try LibraryStore(database: queue)
        let entries = try library.entries()
        #expect(entries.count == 3)
        for (sample, position) in LegacyLibraryFixture.positions {
            let entry = try #require(entries.first { $0.path.hasSuffix(sample) }, "\(sample)")
            #expect(entry.locator == position.locator)
            #expect(entry.progress == position.progress)
        }
        let wasteLand = try #require(entries.first { $0.path.hasSuffix(LegacyLibraryFixture.wasteLand) })
        let bookmarks = try library.bookmarks(publicationID: wasteLand.id)
        #expect(bookmarks.map(\.label) == LegacyLibraryFixture.bookmarks.map(\.label))
        #expect(bookmarks.map(\.locator) == LegacyLibraryFixture.bookmarks.map(\.locator))
        #expect(try LibraryLocations(store: library).otherPaths(publicationID: wasteLand.id) == [LegacyLibraryFixture.otherLocation])
        #expect(try ReadingStatisticsStore(store: library).all()[LegacyLibraryFixture.statisticsIdentity]
            == BookReadingStatistics(seconds: 600, sessions: 1, pages: 12, characters: 9000))
        let protected = try #require(entries.first { $0.identity == LegacyLibraryFixture.lcpIdentity })
        #expect(protected.licenseID == LegacyLibraryFixture.lcpLicenseID)

        #expect(try CatalogStore(database: queue).all() == [LegacyLibraryFixture.catalog])

        let lcp = try LCPSQLiteStore(database: queue)
        let licenses = LCPSQLiteLicenseRepository(store: lcp)
        let license = try LicenseDocument(data: Fixtures.bytes(Fixtures.sample(LegacyLibraryFixture.lcpLicense)))
        #expect(try licenses.licenseData(id: license.id) == license.data)
        #expect(try licenses.allowance(licenseID: license.id)
            == RightsAllowance(copy: .left(2048 - LegacyLibraryFixture.copiedCharacters), print: .left(100 - LegacyLibraryFixture.printedPages)))
        #expect(try LCPSQLitePassphraseRepository(store: lcp).passphrases(licenseID: license.id) == [LegacyLibraryFixture.userKey])
        // The counters go on from where they were.
        #expect(try licenses.consume(.print, amount: 100 - LegacyLibraryFixture.printedPages, licenseID: license.id))
        #expect(try !licenses.consume(.print, amount: 1, licenseID: license.id))
    }

    /// The annotations step (library/7-annotations) applies on top of the old file: a book
    /// already there takes a highlight with a note, which reads back and is found by its words,
    /// and the old bookmarks are still there beside it.
    @Test func anOldLibraryTakesAnnotations() throws {
        let queue = try SQLiteQueue(path: try copyOfFixture(), migrations: Self.migrations)
        let library = try LibraryStore(database: queue)
        let entry = try #require(try library.entries().first { $0.path.hasSuffix(LegacyLibraryFixture.wasteLand) })
        let annotation = Annotation(target: AnnotationTarget(href: "OEBPS/ch1.xhtml", progression: 0.1, textRange: 10..<19,
                                                             quote: TextQuote(exact: "cruellest")),
                                    color: .green, note: "a remembered month")
        try library.saveAnnotation(annotation, publicationID: entry.id, sealing: nil)
        #expect(try library.annotations(publicationID: entry.id, sealing: nil).map(\.id) == [annotation.id])
        #expect(try library.annotationNotes(matching: "remembered").map(\.annotationID) == [annotation.id])
        #expect(try library.bookmarks(publicationID: entry.id).map(\.label) == LegacyLibraryFixture.bookmarks.map(\.label))
    }

    /// The bookmark sync step (library/8-bookmark-sync) applies on top of the old file: every
    /// old bookmark keeps its place and label, and gets a stable id of its own (a UUID) and its
    /// creation time as modified time; deleting one keeps a tombstone, not listed.
    @Test func anOldLibrarysBookmarksGetStableIdsForSyncing() throws {
        let queue = try SQLiteQueue(path: try copyOfFixture(), migrations: Self.migrations)
        let library = try LibraryStore(database: queue)
        let entry = try #require(try library.entries().first { $0.path.hasSuffix(LegacyLibraryFixture.wasteLand) })
        let bookmarks = try library.bookmarks(publicationID: entry.id)
        #expect(bookmarks.map(\.label) == LegacyLibraryFixture.bookmarks.map(\.label))
        #expect(bookmarks.map(\.locator) == LegacyLibraryFixture.bookmarks.map(\.locator))
        #expect(Set(bookmarks.map(\.uid)).count == bookmarks.count)
        #expect(bookmarks.allSatisfy { UUID(uuidString: $0.uid) != nil && $0.uid == $0.uid.lowercased() }, "\(bookmarks.map(\.uid))")
        #expect(bookmarks.allSatisfy { $0.modifiedAt == $0.createdAt && !$0.deleted })
        let first = try #require(bookmarks.first)
        try library.deleteBookmark(id: first.id)
        #expect(try library.bookmarks(publicationID: entry.id).map(\.uid) == bookmarks.dropFirst().map(\.uid))
        let tombstone = try #require(try library.bookmarks(publicationID: entry.id, includingDeleted: true).first { $0.uid == first.uid })
        #expect(tombstone.deleted && tombstone.label.isEmpty && tombstone.modifiedAt > first.modifiedAt)
        // A bookmark added now gets an id of its own too.
        let added = try library.addBookmark(Bookmark(locator: first.locator, label: "again"), publicationID: entry.id)
        let new = try #require(try library.bookmarks(publicationID: entry.id).first { $0.id == added })
        #expect(!bookmarks.map(\.uid).contains(new.uid) && UUID(uuidString: new.uid) != nil)
    }

    @Test func theSearchIndexIsKeptAndAnswers() throws {
        let path = try copyOfFixture()
        for _ in 0..<2 {
            // Twice: reopening a migrated file runs nothing again (the index rebuild step
            // would empty it).
            let library = try LibraryStore(database: try SQLiteQueue(path: path, migrations: Self.migrations))
            #expect(try library.fullTextCoverage() == FullTextCoverage(indexed: 2, pending: 0))
            let hits = try library.searchFullText(try #require(FullTextQuery(LegacyLibraryFixture.searchedWord)))
            #expect(!hits.isEmpty)
            #expect(hits.allSatisfy { $0.publication.path.hasSuffix(LegacyLibraryFixture.wasteLand) })
            #expect(hits.first?.highlight == LegacyLibraryFixture.searchedWord)
        }
    }

    @Test func theEarlierSchemesAreRecordedAsNamedStepsAndStillReadable() throws {
        let path = try copyOfFixture()
        _ = try SQLiteQueue(path: path, migrations: Self.migrations)
        let database = try SQLiteDatabase(path: path)
        let recorded = Set(try database.query("SELECT name FROM lectern_migrations").compactMap { $0.string(0) })
        #expect(recorded == Set(Self.migrations.flatMap(\.names)))
        // A Lectern of the earlier scheme opening the file finds the versions it knows.
        #expect(database.userVersion == 3)
        #expect(try database.query("SELECT version FROM lcp_schema").first?.int(0) == 3)
    }
}
