import Annotations
import FoundationEssentials
import Testing

/// ``AnnotationMerge``: what two devices' annotations become when synced through a folder (#32),
/// and ``AnnotationSyncFile``, the file they are exchanged in.
@Suite struct FolderSyncMergeTests {
    func note(_ id: String, _ text: String?, modified: Double, deleted: Bool = false, quote: String? = "words") -> Annotation {
        Annotation(id: id, target: AnnotationTarget(href: "c1.xhtml", textRange: 3..<8, quote: quote.map { TextQuote(exact: $0) }),
                   note: text, created: Date(timeIntervalSince1970: 1_000), modified: Date(timeIntervalSince1970: modified),
                   deleted: deleted)
    }

    @Test func theUnionByIdKeepsTheNewestVersion() {
        let local = [note("a", "mine", modified: 2_000), note("b", "old", modified: 2_000)]
        let remote = [note("b", "edited elsewhere", modified: 3_000), note("c", "theirs", modified: 2_500)]
        let result = AnnotationMerge.merge(local: local, remote: [remote])
        #expect(result.merged.map(\.id) == ["a", "b", "c"])
        #expect(result.merged.map(\.note) == ["mine", "edited elsewhere", "theirs"])
        #expect(result.changedLocally.map(\.id) == ["b", "c"])
        // A local version newer than the file's stays, and nothing is to be saved for it.
        let newer = AnnotationMerge.merge(local: [note("b", "newest here", modified: 4_000)], remote: [remote])
        #expect(newer.merged.first { $0.id == "b" }?.note == "newest here")
        #expect(!newer.changedLocally.contains { $0.id == "b" })
    }

    @Test func aNewerTombstoneDeletesAndALaterEditComesBack() {
        let live = note("a", "kept", modified: 2_000)
        let tombstone = note("a", nil, modified: 3_000, deleted: true, quote: nil)
        let deleted = AnnotationMerge.merge(local: [live], remote: [[tombstone]])
        #expect(deleted.merged.count == 1 && deleted.merged[0].deleted)
        #expect(deleted.changedLocally.map(\.deleted) == [true])
        // Edited after the deletion elsewhere: the edit wins.
        let edited = note("a", "edited after", modified: 4_000)
        let revived = AnnotationMerge.merge(local: [tombstone], remote: [[edited]])
        #expect(revived.merged.map(\.deleted) == [false])
        #expect(revived.merged.first?.note == "edited after")
        // At the same time, the deletion wins.
        let tie = AnnotationMerge.merge(local: [note("a", "same time", modified: 3_000)], remote: [[tombstone]])
        #expect(tie.merged.map(\.deleted) == [true])
    }

    @Test func theResultDoesNotDependOnTheOrderOfTheFiles() {
        let first = [note("a", "one", modified: 5_000), note("b", "x", modified: 1_500)]
        let second = [note("a", "two", modified: 5_000), note("c", nil, modified: 1_200, deleted: true)]
        let one = AnnotationMerge.merge(local: [], remote: [first, second])
        let two = AnnotationMerge.merge(local: [], remote: [second, first])
        #expect(one == two)
        #expect(one.merged.map(\.id) == ["a", "b", "c"])
        // Merging the result again changes nothing.
        #expect(AnnotationMerge.merge(local: one.merged, remote: [first, second]).changedLocally.isEmpty)
    }

    @Test func aQuoteTheFileLacksIsKeptFromTheLibrary() {
        var sealed = note("a", "mine", modified: 2_000, quote: nil)
        sealed.target.quoteIsSealed = true
        let fromFile = note("a", "edited on the other device", modified: 3_000, quote: nil)
        let result = AnnotationMerge.merge(local: [sealed], remote: [[fromFile]])
        #expect(result.merged.first?.note == "edited on the other device")
        #expect(result.merged.first?.target.quoteIsSealed == true)
        let clear = AnnotationMerge.merge(local: [note("a", "mine", modified: 2_000, quote: "the words")], remote: [[fromFile]])
        #expect(clear.changedLocally.first?.target.quote?.exact == "the words")
    }

    @Test func theFileKeepsTombstonesAndTimesToTheMicrosecond() throws {
        let modified = Date(timeIntervalSince1970: 1_780_000_000.123456)
        var live = note("6f1e0c1a-2b3c-4d5e-8f70-0123456789ab", "a note", modified: 0)
        live.modified = modified
        let gone = note("7f1e0c1a-2b3c-4d5e-8f70-0123456789ab", nil, modified: 1_780_000_001, deleted: true, quote: nil)
        let publication = AnnotatedPublication(identifier: "urn:isbn:9780000000000", title: "T", annotations: [live, gone])
        let data = AnnotationSyncFile.write(publication, generated: Date(timeIntervalSince1970: 0))
        let read = try AnnotationSyncFile.read(data)
        #expect(read.identifier == "urn:isbn:9780000000000")
        #expect(read.annotations.map(\.id) == [live.id, gone.id])
        #expect(read.annotations.map(\.deleted) == [false, true])
        #expect(read.annotations.map { AnnotationMerge.micros($0.modified) } == [live, gone].map { AnnotationMerge.micros($0.modified) })
        #expect(read.annotations.first?.target.quote?.exact == "words")
        // Still a Readium set other readers import (the tombstone is one more item to them).
        #expect(try AnnotationImporter.read(data, fileName: "book.annotation").first?.annotations.count == 2)
    }

    @Test func aTruncatedFileIsRefused() throws {
        let publication = AnnotatedPublication(identifier: "x", title: "T", annotations: [note("a", "n", modified: 1)])
        let data = AnnotationSyncFile.write(publication, generated: Date(timeIntervalSince1970: 0))
        #expect(throws: AnnotationImportError.self) { try AnnotationSyncFile.read(data.prefix(data.count / 2)) }
        #expect(throws: AnnotationImportError.self) { try AnnotationSyncFile.read(Data("{\"type\":\"Annotation\"}".utf8)) }
    }

    /// A book of 2,000 annotations, each edited on one side or the other: every one comes out,
    /// the newer version of each. The time is printed for `make bench`'s row, not asserted.
    @Test func twoThousandAnnotationsMergeWhole() {
        let local = (0..<2_000).map { note("id-\($0)", "local \($0)", modified: Double(2_000 + ($0 % 2) * 10)) }
        let remote = (0..<2_000).map { note("id-\($0)", "remote \($0)", modified: Double(2_005), deleted: $0 % 10 == 0) }
        let clock = ContinuousClock()
        var result: AnnotationMerge.Result?
        let elapsed = clock.measure { result = AnnotationMerge.merge(local: local, remote: [remote]) }
        print("merge of 2,000 with 2,000 annotations: \(elapsed)")
        #expect(result?.merged.count == 2_000)
        #expect(result?.changedLocally.count == 1_000)
        #expect(result?.merged.filter(\.deleted).count == 200)
        #expect(result?.merged.first { $0.id == "id-1" }?.note == "local 1")
        #expect(result?.merged.first { $0.id == "id-2" }?.note == "remote 2")
    }
}
