import Annotations
import Bookshelf
import Foundation
import Testing
import TestSupport

/// A folder sync with nothing changed since the book's last merge reads neither side (#32: the
/// reader syncs on opening, on closing and every few minutes), and every change made since —
/// another device's file, a file edited in place with its time put back, a local edit or
/// deletion, a conflict copy, another folder — still merges in full.
@Suite struct FolderSyncUnchangedTests {
    let folder = Fixtures.temporaryDirectory("folder-sync-unchanged")

    /// One device: a library of its own holding the same book.
    struct Device {
        let store: LibraryStore
        let entry: LibraryEntry

        init(_ name: String) throws {
            store = try LibraryStore(path: Fixtures.temporaryDirectory("folder-sync-unchanged-" + name) + "/library.sqlite")
            entry = try store.add(LibraryEntry(identity: "id:urn:isbn:9780000000002#4096", path: "/books/\(name).epub", title: "The Book"))
        }

        @discardableResult
        func highlight(_ note: String, at seconds: Double = Date().timeIntervalSince1970) throws -> Annotation {
            let annotation = Annotation(target: AnnotationTarget(href: "c1.xhtml", type: "application/xhtml+xml", progression: 0.5,
                                                                 quote: TextQuote(exact: "call me Ishmael")),
                                        note: note, created: Date(timeIntervalSince1970: seconds))
            try store.saveAnnotation(annotation, publicationID: entry.id, sealing: nil)
            return annotation
        }

        func notes() throws -> [String] {
            try store.annotations(publicationID: entry.id, sealing: nil).compactMap(\.note).sorted()
        }

        /// Syncs, returning the outcome and the phases that ran.
        func sync(_ folder: String) -> (outcome: AnnotationFolderSync.Outcome, phases: [String]) {
            var timings = FolderSyncTimings()
            let outcome = AnnotationFolderSync(folder: folder).sync(entry, store: store, timings: &timings)
            return (outcome, timings.phases.map(\.name))
        }
    }

    func filePath() throws -> String {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".annotation") })
        return folder + "/" + name
    }

    @Test func aSyncWithNothingChangedReadsNeitherSide() throws {
        let laptop = try Device("laptop")
        for number in 1...3 { try laptop.highlight("note \(number)") }
        let first = laptop.sync(folder)
        #expect(first.outcome.wrote && first.outcome.problems.isEmpty)
        let second = laptop.sync(folder)
        #expect(second.outcome.fileName == first.outcome.fileName && second.outcome.saved == 0 && second.outcome.savedBookmarks == 0
                    && !second.outcome.wrote && second.outcome.removedConflicts.isEmpty && second.outcome.problems.isEmpty)
        #expect(second.phases == ["conflict listing", "unchanged check"], "the unchanged sync ran \(second.phases)")
        // And again: the skip records nothing that would make the next sync merge.
        let third = laptop.sync(folder)
        #expect(third.phases == ["conflict listing", "unchanged check"])
    }

    @Test func everyChangeSinceTheLastMergeStillMerges() throws {
        let laptop = try Device("laptop"), phone = try Device("phone")
        try laptop.highlight("from the laptop")
        _ = laptop.sync(folder)
        _ = laptop.sync(folder)

        // Another device writes the file: received.
        try phone.highlight("from the phone")
        #expect(phone.sync(folder).outcome.wrote)
        let received = laptop.sync(folder)
        #expect(received.outcome.saved == 1 && received.phases.contains("folder read"))
        #expect(try laptop.notes() == ["from the laptop", "from the phone"])
        #expect(laptop.sync(folder).phases == ["conflict listing", "unchanged check"])

        // The file edited in place, same size, its modification time put back: received.
        let path = try filePath()
        let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let edited = try Self.movingFirstModifiedAYearOn(in: text)
        #expect(edited.utf8.count == text.utf8.count)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(edited.utf8))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: try #require(before)], ofItemAtPath: path)
        let inPlace = laptop.sync(folder)
        #expect(inPlace.outcome.problems.isEmpty && inPlace.outcome.saved == 1, "\(inPlace)")

        // A local edit and a local deletion: written.
        let mine = try laptop.highlight("second from the laptop")
        #expect(laptop.sync(folder).outcome.wrote)
        try laptop.store.deleteAnnotation(id: mine.id, publicationID: laptop.entry.id)
        #expect(laptop.sync(folder).outcome.wrote)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("lectern:deleted"))

        // A conflict copy another device left: merged and removed.
        let copy = path.replacingOccurrences(of: ".annotation", with: ".sync-conflict-20261128-120000-PHONE.annotation")
        try phone.highlight("in the conflict copy")
        let phoneFolder = Fixtures.temporaryDirectory("folder-sync-unchanged-phone-folder")
        _ = phone.sync(phoneFolder)
        try FileManager.default.copyItem(atPath: phoneFolder + "/" + URL(fileURLWithPath: path).lastPathComponent, toPath: copy)
        let merged = laptop.sync(folder)
        #expect(merged.outcome.removedConflicts.count == 1 && merged.outcome.saved >= 1)
        #expect(try laptop.notes().contains("in the conflict copy"))
        #expect(laptop.sync(folder).phases == ["conflict listing", "unchanged check"])

        // Another folder: the book's file is written there.
        let other = Fixtures.temporaryDirectory("folder-sync-unchanged-other")
        #expect(laptop.sync(other).outcome.wrote)
    }

    /// `text` with its first `"modified": "YYYY-…"` a year later (the same length).
    static func movingFirstModifiedAYearOn(in text: String) throws -> String {
        let range = try #require(text.range(of: #""modified": ?"[0-9]{4}-"#, options: .regularExpression))
        let old = String(text[range])
        let year = try #require(Int(old.dropFirst(old.count - 5).dropLast()))
        return text.replacingCharacters(in: range, with: old.dropLast(5) + "\(year + 1)-")
    }
}
