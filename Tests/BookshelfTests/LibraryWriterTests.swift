import Foundation
import Bookshelf
import Testing
import TestSupport

@Suite struct LibraryWriterTests {
    /// Positions saved from many tasks, faster than the disk takes them, land in the order the
    /// tasks were started (every one of them, as a trigger logs them): the newest is the one
    /// the library keeps. Saving on close comes after
    /// every write asked for before it.
    @MainActor @Test func theNewestPositionWins() async throws {
        let path = Fixtures.temporaryDirectory("library-order") + "/library.sqlite"
        let library = try Library(path: path)
        let entry = try await library.add(LibraryEntry(identity: "id:x#1", path: "/x.epub", title: "X"))
        // A trigger logs every position as it lands, so the order of all writes is seen.
        try Command.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.executescript("CREATE TABLE test_landed (locator TEXT); CREATE TRIGGER test_landed_position AFTER UPDATE OF locator "
                             "ON shelf_publications BEGIN INSERT INTO test_landed VALUES (new.locator); END;")
            """, [path])
        var tasks: [Task<Void, any Error>] = []
        for step in 1...300 {
            tasks.append(Task { try await library.savePosition(id: entry.id, locator: "\(step)", progress: Double(step) / 300) })
        }
        for task in tasks { try await task.value }
        let landed = try Command.python("""
            import sqlite3, sys
            print(" ".join(row[0] for row in sqlite3.connect(sys.argv[1]).execute("SELECT locator FROM test_landed ORDER BY rowid")))
            """, [path])
        #expect(String(decoding: landed, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) } == Array(1...300))
        #expect(try library.store.entry(id: entry.id)?.locator == "300")
        #expect(try library.store.entry(id: entry.id)?.progress == 1)
        // Page turns queue their saves without waiting; closing the book comes after them all.
        for step in 301...320 {
            library.queuePosition(id: entry.id, locator: "{\"step\":\(step)}", progress: nil) { error in
                Issue.record("write failed: \(error.userMessage)")
            }
        }
        try library.savePositionNow(id: entry.id, locator: "{\"closed\":true}", progress: 0.5)
        #expect(try library.store.entry(id: entry.id)?.locator == "{\"closed\":true}")
        #expect(try library.store.entry(id: entry.id)?.progress == 0.5)
    }

    /// A write that fails (the book was removed underneath the reader) reaches the caller as a
    /// ``LibraryError`` with a message a person can read, and so does a closing save.
    @Test func aFailedWriteReachesTheCaller() async throws {
        let library = try Library(path: Fixtures.temporaryDirectory("library-failure") + "/library.sqlite")
        let entry = try await library.add(LibraryEntry(identity: "id:gone#1", path: "/gone.epub", title: "Gone"))
        try await library.savePosition(id: entry.id, locator: "{}", progress: 0.1)
        try library.store.delete(id: entry.id)
        let error = await #expect(throws: LibraryError.self) {
            try await library.savePosition(id: entry.id, locator: "{\"later\":1}", progress: 0.2)
        }
        #expect(error?.userMessage == "library database: the publication is no longer in the library")
        await confirmation("the queued write reports its failure") { failed in
            library.queuePosition(id: entry.id, locator: "{}", progress: nil) { error in
                #expect(error.userMessage.contains("no longer in the library"))
                failed()
            }
            // Waits for the queued write (and fails the same way).
            #expect(throws: LibraryError.self) { try library.savePositionNow(id: entry.id, locator: "{}", progress: nil) }
        }
        await #expect(throws: LibraryError.self) {
            try await library.addBookmark(Bookmark(locator: "{}", label: "x"), publicationID: entry.id)
        }
    }
}
