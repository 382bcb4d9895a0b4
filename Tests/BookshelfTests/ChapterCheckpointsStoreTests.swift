import Foundation
import Bookshelf
import Testing
import TestSupport

/// The checkpoints of long chapters (#28) are kept per content and chapter across reopenings
/// of the library database (its named step `library/11-chapter-checkpoints`), replaced by a
/// newer recording, and removed when none are left.
@Suite struct ChapterCheckpointsStoreTests {
    @Test func checkpointsAreKeptPerChapterAcrossReopenings() throws {
        let path = Fixtures.temporaryDirectory("chapter-checkpoints") + "/library.sqlite"
        do {
            let store = try LibraryStore(path: path)
            #expect(try store.chapterCheckpoints(identity: "id:long") == [:])
            try store.setChapterCheckpoints([1, 2, 3, 4, 5, 6, 0], chapter: 0, identity: "id:long")
            try store.setChapterCheckpoints([7, 8, 9, 10, 11, 12, 1], chapter: 3, identity: "id:long")
            try store.setChapterCheckpoints([9, 9, 9, 9, 9, 9, 9], chapter: 0, identity: "id:other")
        }
        let store = try LibraryStore(path: path)
        #expect(try store.chapterCheckpoints(identity: "id:long") == [0: [1, 2, 3, 4, 5, 6, 0], 3: [7, 8, 9, 10, 11, 12, 1]])
        try store.setChapterCheckpoints([2, 3, 4, 5, 6, 7, 0], chapter: 0, identity: "id:long")
        try store.setChapterCheckpoints([], chapter: 3, identity: "id:long")
        #expect(try store.chapterCheckpoints(identity: "id:long") == [0: [2, 3, 4, 5, 6, 7, 0]])
        #expect(try store.chapterCheckpoints(identity: "id:other") == [0: [9, 9, 9, 9, 9, 9, 9]])
    }
}
