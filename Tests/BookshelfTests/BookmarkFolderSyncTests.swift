import Annotations
import Bookshelf
import Foundation
import Shared
import Testing
import TestSupport

/// Bookmarks synced through a folder (#32), like annotations: stable ids, modified times and
/// tombstones in the library (`library/8-bookmark-sync`), merged by ``BookmarkMerge`` (union by
/// id, newest wins, tombstones delete) in the book's file; a protected book's labels and the
/// words of its places never in the folder.
@Suite struct BookmarkFolderSyncTests {
    let folder = Fixtures.temporaryDirectory("bookmark-sync-folder")

    /// One device: a library of its own holding the same book.
    struct Device {
        let store: LibraryStore
        let entry: LibraryEntry

        init(_ name: String, protection: ProtectionMark = .none) throws {
            store = try LibraryStore(path: Fixtures.temporaryDirectory("bookmark-sync-" + name) + "/library.sqlite")
            entry = try store.add(LibraryEntry(identity: "id:urn:isbn:9780000000001#4096", path: "/books/\(name).epub",
                                               title: "The Book", protection: protection))
        }

        func mark(_ label: String, progression: Double, words: String = "") throws -> Bookmark {
            let locator = Locator(href: "c1.xhtml", mediaType: nil,
                                  locations: Locator.Locations(progression: progression),
                                  text: Locator.Text(highlight: words.isEmpty ? nil : words))
            let bookmark = Bookmark(locator: locator.jsonString, label: label, progress: progression / 2)
            var stored = bookmark
            stored.id = try store.addBookmark(bookmark, publicationID: entry.id)
            return stored
        }

        func labels() throws -> [String] { try store.bookmarks(publicationID: entry.id).map(\.label).sorted() }

        func sync(_ folder: String) -> AnnotationFolderSync.Outcome {
            AnnotationFolderSync(folder: folder).sync(entry, store: store)
        }
    }

    func fileText() throws -> String {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".annotation") })
        return try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
    }

    @Test func bookmarksMadeOnEachEndEqualAndADeletionReachesTheOther() throws {
        let laptop = try Device("laptop"), server = try Device("server")
        let mine = try laptop.mark("Loomings", progression: 0.1)
        _ = try server.mark("The Carpet-Bag", progression: 0.4)
        #expect(laptop.sync(folder).problems.isEmpty)
        let outcome = server.sync(folder)
        #expect(outcome.problems.isEmpty && outcome.savedBookmarks == 1)
        #expect(laptop.sync(folder).savedBookmarks == 1)
        #expect(try laptop.labels() == ["Loomings", "The Carpet-Bag"])
        #expect(try server.labels() == laptop.labels())
        let uids = Set(try laptop.store.bookmarks(publicationID: laptop.entry.id).map(\.uid))
        #expect(uids == Set(try server.store.bookmarks(publicationID: server.entry.id).map(\.uid)))

        // Renamed on the server (later), deleted on the laptop: each reaches the other.
        let theirs = try #require(try server.store.bookmarks(publicationID: server.entry.id).first { $0.uid == mine.uid })
        try server.store.renameBookmark(id: theirs.id, label: "Call me Ishmael", at: Date().addingTimeInterval(5))
        let carpet = try #require(try laptop.store.bookmarks(publicationID: laptop.entry.id).first { $0.label == "The Carpet-Bag" })
        try laptop.store.deleteBookmark(id: carpet.id, at: Date().addingTimeInterval(5))
        _ = laptop.sync(folder)
        _ = server.sync(folder)
        _ = laptop.sync(folder)
        #expect(try laptop.labels() == ["Call me Ishmael"])
        #expect(try server.labels() == ["Call me Ishmael"])
        // The tombstone stays in each library (and in the file) for the devices not synced yet.
        let tombstones = try server.store.bookmarks(publicationID: server.entry.id, includingDeleted: true).filter(\.deleted)
        #expect(tombstones.map(\.uid) == [carpet.uid] && tombstones.first?.label == "")
        #expect(try fileText().contains("lectern:bookmarks"))
        // Synced again, nothing changes.
        let again = laptop.sync(folder)
        #expect(again.savedBookmarks == 0 && !again.wrote)
    }

    @Test func aProtectedBooksLabelsAndPlaceWordsNeverReachTheFolder() throws {
        let laptop = try Device("lcp-laptop", protection: .lcp), server = try Device("lcp-server", protection: .lcp)
        let made = try laptop.mark("Zebras quietly graze", progression: 0.3, words: "Zebras quietly graze")
        #expect(laptop.sync(folder).wrote)
        let text = try fileText()
        #expect(!text.contains("Zebras"), "\(text)")
        #expect(text.contains(made.uid))
        // The other device gets the place, without the label; the laptop keeps its own label.
        #expect(server.sync(folder).savedBookmarks == 1)
        let received = try #require(try server.store.bookmarks(publicationID: server.entry.id).first)
        #expect(received.uid == made.uid && received.label == "" && !received.locator.contains("Zebras"))
        #expect(Locator(jsonString: received.locator)?.locations.progression == 0.3)
        _ = laptop.sync(folder)
        #expect(try laptop.labels() == ["Zebras quietly graze"])
    }

    @Test func bookmarksMergeLikeAnnotations() {
        func mark(_ id: String, _ label: String, modified: Double, deleted: Bool = false) -> SyncedBookmark {
            SyncedBookmark(id: id, locator: #"{"href":"c1.xhtml"}"#, label: label, progress: 0.1,
                           created: Date(timeIntervalSince1970: 1_000), modified: Date(timeIntervalSince1970: modified), deleted: deleted)
        }
        let local = [mark("a", "mine", modified: 2_000), mark("b", "old", modified: 2_000)]
        let remote = [mark("b", "renamed elsewhere", modified: 3_000), mark("c", "theirs", modified: 2_500)]
        let result = BookmarkMerge.merge(local: local, remote: [remote])
        #expect(result.merged.map(\.label) == ["mine", "renamed elsewhere", "theirs"])
        #expect(result.changedLocally.map(\.id) == ["b", "c"])
        // A newer tombstone deletes; at the same time too; a later edit comes back.
        #expect(BookmarkMerge.merge(local: local, remote: [[mark("a", "", modified: 2_500, deleted: true)]]).merged.first?.deleted == true)
        #expect(BookmarkMerge.merge(local: local, remote: [[mark("a", "", modified: 2_000, deleted: true)]]).merged.first?.deleted == true)
        #expect(BookmarkMerge.merge(local: [mark("a", "", modified: 2_000, deleted: true)],
                                    remote: [[mark("a", "back", modified: 2_100)]]).merged.first?.deleted == false)
        // The order of the files does not matter.
        let other = [mark("c", "theirs too", modified: 2_500)]
        #expect(BookmarkMerge.merge(local: [], remote: [remote, other]) == BookmarkMerge.merge(local: [], remote: [other, remote]))
    }

    @Test func theFileKeepsBookmarksAndTheirTombstones() throws {
        let live = SyncedBookmark(id: "b1", locator: #"{"href":"c1.xhtml","locations":{"progression":0.25}}"#, label: "Chapter 1",
                                  progress: 0.1, created: Date(timeIntervalSince1970: 1_000.123456),
                                  modified: Date(timeIntervalSince1970: 2_000.654321))
        var gone = live
        gone.id = "b2"
        gone.deleted = true
        gone.label = ""
        let data = AnnotationSyncFile.write(AnnotatedPublication(identifier: "urn:x", title: "T", annotations: []),
                                            bookmarks: [live, gone], generated: Date())
        let (_, read) = try AnnotationSyncFile.readWithBookmarks(data)
        #expect(read.map(\.id) == ["b1", "b2"])
        #expect(read.map(\.deleted) == [false, true])
        #expect(AnnotationMerge.micros(read[0].modified) == AnnotationMerge.micros(live.modified))
        #expect(Locator(jsonString: read[0].locator)?.locations.progression == 0.25)
        // A bookmark without its times is reported, as an unreadable annotation is.
        let one = AnnotationSyncFile.write(AnnotatedPublication(identifier: "urn:x", title: "T", annotations: []),
                                           bookmarks: [live], generated: Date())
        let broken = Data(String(decoding: one, as: UTF8.self).replacingOccurrences(of: "\"created\"", with: "\"made\"").utf8)
        let reread = try AnnotationSyncFile.readWithBookmarks(broken)
        #expect(reread.bookmarks.isEmpty && reread.publication.skipped.count == 1)
    }
}
