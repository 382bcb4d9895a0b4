import Foundation
import Bookshelf
import Testing
import TestSupport

@Suite struct LibraryWriterTests {
    /// Positions saved from many tasks, faster than the disk takes them, land in the order the
    /// tasks were started: the newest is the one the library keeps. Saving on close comes after
    /// every write asked for before it.
    @MainActor @Test func theNewestPositionWins() async throws {
        let library = try Library(path: Fixtures.temporaryDirectory("library-order") + "/library.sqlite")
        let entry = try await library.add(LibraryEntry(identity: "id:x#1", path: "/x.epub", title: "X"))
        var tasks: [Task<Void, any Error>] = []
        for step in 1...300 {
            tasks.append(Task { try await library.savePosition(id: entry.id, locator: "{\"step\":\(step)}", progress: Double(step) / 300) })
        }
        for task in tasks { try await task.value }
        #expect(try library.store.entry(id: entry.id)?.locator == "{\"step\":300}")
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
