import Bookshelf
import Foundation
import LCP
import LCPSQLite
import LibSQLite
import LibrarySearch
import Shared
import Streamer
import Testing
import TestSupport

/// What the committed database `Tests/Fixtures/library-database/library-before-named-migrations.sqlite`
/// holds: a library written by Lectern before its stores shared one database queue and named
/// migrations (`PRAGMA user_version` for the bookshelf, `lcp_schema` for LCP, catalogs and the
/// bookshelf's side tables created with `IF NOT EXISTS`). ``LegacyLibraryFixtureWriter`` made
/// it with that code; ``LegacyLibraryMigrationTests`` opens it with today's.
enum LegacyLibraryFixture {
    static let fileName = "library-before-named-migrations.sqlite"
    static var committedPath: String { Fixtures.path("library-database/" + fileName) }

    static let wasteLand = "epub/idpf-wasteland.epub"
    static let heftyWater = "epub/idpf-hefty-water.epub"
    static let lcpLicense = "lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.lcpl"
    static let lcpLicenseID = "f327b94f-7e05-406e-8524-84ef729db700"
    static let lcpIdentity = "sha256:fixture-lcp-wasteland"

    /// Reading positions saved per sample.
    static let positions: [String: (locator: String, progress: Double)] = [
        wasteLand: (#"{"href":"EPUB/wasteland-content.xhtml","locations":{"progression":0.25}}"#, 0.24),
        heftyWater: (#"{"href":"EPUB/heftywater.xhtml","locations":{"progression":0.5}}"#, 0.5),
    ]
    /// Bookmarks of The Waste Land, as named by the person.
    static let bookmarks: [(locator: String, label: String, progress: Double)] = [
        (#"{"href":"EPUB/wasteland-content.xhtml","locations":{"progression":0.1}}"#, "The Burial of the Dead", 0.1),
        (#"{"href":"EPUB/wasteland-content.xhtml","locations":{"progression":0.8}}"#, "What the Thunder Said", 0.8),
    ]
    static let catalog = SavedCatalog(name: "Fixture Library", url: "https://catalog.example/opds", username: "reader",
                                      password: "hunter2", authenticationType: "http://opds-spec.org/auth/basic",
                                      tokenURL: "https://catalog.example/token", accessToken: "token-123",
                                      lcpHashedPassphrase: String(repeating: "cd", count: 32),
                                      tokenExpiresAt: Date(timeIntervalSince1970: 1_900_000_000),
                                      addedAt: Date(timeIntervalSince1970: 1_700_000_000))
    /// The license allows 2048 characters and 100 pages; this much was used.
    static let copiedCharacters = 48
    static let printedPages = 7
    static let userKey = String(repeating: "ab", count: 32)
    static let statisticsIdentity = "sha256:fixture-statistics"
    static let otherLocation = "/elsewhere/wasteland.epub"
    /// A word of The Waste Land the index finds.
    static let searchedWord = "Sosostris"
}

/// Writes the fixture with the code of the commit it runs on. Run only on purpose:
/// `LECTERN_WRITE_LIBRARY_FIXTURE=1 swift test --filter LegacyLibraryFixtureWriter`.
@Suite struct LegacyLibraryFixtureWriter {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["LECTERN_WRITE_LIBRARY_FIXTURE"] == "1"))
    func writeTheFixture() async throws {
        let folder = Fixtures.temporaryDirectory("legacy-library")
        let path = folder + "/library.sqlite"
        do {
            let store = try LibraryStore(path: path)
            let importer = LibraryImporter(store: store, open: fixtureOpening)
            var ids: [String: Int64] = [:]
            for sample in [LegacyLibraryFixture.wasteLand, LegacyLibraryFixture.heftyWater] {
                let outcome = await importer.importFile(Fixtures.sample(sample))
                ids[sample] = try #require(outcome.entry?.id)
            }
            for (sample, position) in LegacyLibraryFixture.positions {
                try store.savePosition(id: try #require(ids[sample]), locator: position.locator, progress: position.progress)
            }
            let wasteLand = try #require(ids[LegacyLibraryFixture.wasteLand])
            for mark in LegacyLibraryFixture.bookmarks {
                let id = try store.addBookmark(Bookmark(locator: mark.locator, label: "", progress: mark.progress), publicationID: wasteLand)
                try store.renameBookmark(id: id, label: mark.label)
            }
            try LibraryLocations(store: store).add(path: LegacyLibraryFixture.otherLocation, publicationID: wasteLand)
            try ReadingStatisticsStore(store: store).addSession(identity: LegacyLibraryFixture.statisticsIdentity,
                                                                 seconds: 600, pages: 12, characters: 9000)
            _ = try store.add(LibraryEntry(identity: LegacyLibraryFixture.lcpIdentity, path: "/books/wasteland-lcp.epub",
                                           title: "The Waste Land (LCP)", author: "T. S. Eliot", format: "EPUB",
                                           protection: .lcp, licenseID: LegacyLibraryFixture.lcpLicenseID))
            let report = await LibraryIndexer(store: store, open: fixtureOpening).indexPending()
            #expect(report.indexed.count == 2)
            try CatalogStore(path: path).save(LegacyLibraryFixture.catalog)

            let lcp = try LCPSQLiteStore(path: path)
            let licenses = LCPSQLiteLicenseRepository(store: lcp)
            let license = try LicenseDocument(data: Fixtures.bytes(Fixtures.sample(LegacyLibraryFixture.lcpLicense)))
            try licenses.addLicense(license, publicationPath: "/books/wasteland-lcp.epub")
            #expect(try licenses.consume(.copy, amount: LegacyLibraryFixture.copiedCharacters, licenseID: license.id))
            #expect(try licenses.consume(.print, amount: LegacyLibraryFixture.printedPages, licenseID: license.id))
            try LCPSQLitePassphraseRepository(store: lcp).addPassphrase(LegacyLibraryFixture.userKey, licenseID: license.id,
                                                                         provider: license.provider, userID: license.user.id)
        }
        // Every connection is closed: fold the WAL into the file, which is then complete alone.
        try SQLiteDatabase(path: path).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let target = LegacyLibraryFixture.committedPath
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: path, toPath: target)
    }
}

/// Opens publications with the Streamer alone (no LCP), as the library's opener would.
let fixtureOpening: PublicationOpening = { path, allowUserInteraction, _ in
    do {
        let asset = try AssetRetriever().retrieve(path: path)
        let publication = try await PublicationOpener().open(asset: asset, allowUserInteraction: allowUserInteraction)
        return .success(OpenedPublication(publication: publication, format: asset.format.description, licenseID: nil))
    } catch {
        return .failure(OpenFailure(message: "\(error)"))
    }
}
