import Annotations
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Annotations kept in step through a folder the person syncs by other means (Syncthing,
/// Nextcloud, a network share; #32): one file per book, `<book id>.annotation`
/// (``AnnotationSyncFile``), merged with the library's annotations (``AnnotationMerge``) and
/// written back whole.
///
/// The file is replaced atomically (a temporary file in the folder, then a rename), so another
/// device never reads half of it. Conflict copies the sync tools make of it are merged, then
/// removed once the merged file is written. A file that cannot be read is told and left as it
/// is (never replaced), so nothing another device wrote is lost; the library's annotations are
/// never removed by a sync, only replaced by newer versions or tombstones.
///
/// The book's bookmarks go in the same file and merge by the same rules (``BookmarkMerge``).
///
/// A protected book's quotes never go into the folder (they are its text): its file holds the
/// places and notes, and the library keeps its sealed quotes when the ids match. Its bookmarks
/// go without their labels and without the words of their places.
public struct AnnotationFolderSync: Sendable {
    /// The folder's absolute path.
    public let folder: String

    public init(folder: String) {
        self.folder = folder
    }

    /// The sync setting (``LibraryStore/syncSetting(_:)``) holding the folder: a setting of this
    /// device's library, next to the progress sync server's, since the folder's path differs
    /// from one device to another (a config file is often shared between machines).
    public static let settingKey = "folder.annotations"

    /// The extension of the files, Readium's.
    public static let fileExtension = ReadiumAnnotationSet.fileExtension

    /// The file name of a book's annotations, the same on every device: the SHA-256 of the
    /// publication's identifier (which may hold anything, `/` included), or of the file's own
    /// hash for a book without one (``ContentIdentity``); nil for a folder publication without
    /// identifier, which no other device can name.
    public static func fileName(identity: String) -> String? {
        if identity.hasPrefix("id:"), let hash = identity.lastIndex(of: "#") {
            let identifier = identity[identity.index(identity.startIndex, offsetBy: 3)..<hash]
            if !identifier.isEmpty { return ContentIdentity.cacheName(of: "id:" + identifier) + "." + fileExtension }
        }
        guard identity.hasPrefix("sha256:") else { return nil }
        return ContentIdentity.cacheName(of: identity) + "." + fileExtension
    }

    /// What ``sync(_:store:now:)`` did for one book.
    public struct Outcome: Sendable, Equatable {
        /// The book's file in the folder; nil when the book has no identity shared by devices.
        public var fileName: String?
        /// Annotations added to or replaced in the library.
        public var saved = 0
        /// Bookmarks added to, replaced in or deleted from the library.
        public var savedBookmarks = 0
        /// Whether the book's file was written.
        public var wrote = false
        /// The conflict copies merged and removed.
        public var removedConflicts: [String] = []
        /// What went wrong, one sentence each (files left as they were).
        public var problems: [String] = []
    }

    /// Merges the folder's file (and its conflict copies) for `entry` into the library and the
    /// library's annotations into the folder.
    public func sync(_ entry: LibraryEntry, store: LibraryStore, now: Date = Date()) -> Outcome {
        var timings = FolderSyncTimings()
        return sync(entry, store: store, now: now, timings: &timings)
    }

    /// ``sync(_:store:now:)``, telling where its time went.
    public func sync(_ entry: LibraryEntry, store: LibraryStore, now: Date = Date(), timings: inout FolderSyncTimings) -> Outcome {
        guard let name = Self.fileName(identity: entry.identity) else { return Outcome() }
        var outcome = Outcome(fileName: name)
        let copies = timings.measure("conflict listing") { FolderSyncFiles.conflictCopies(of: name, in: folder) }
        if copies.isEmpty, timings.measure("unchanged check", { isUnchanged(entry, fileName: name, store: store) }) {
            return outcome
        }
        let local: [Annotation]
        let localBookmarks: [SyncedBookmark]
        do throws(LibraryError) {
            // No sealing: a protected book's quotes stay sealed (quoteIsSealed), and saving
            // such an annotation back keeps them.
            (local, localBookmarks) = try timings.measure("library read") { () throws(LibraryError) in
                (try store.annotations(publicationID: entry.id, includingDeleted: true, sealing: nil),
                 try store.bookmarks(publicationID: entry.id, includingDeleted: true).map(Self.synced))
            }
        } catch {
            outcome.problems.append("\(entry.title): \(error.userMessage)")
            return outcome
        }
        let main = folder + "/" + name
        var remote: [[Annotation]] = []
        var remoteBookmarks: [[SyncedBookmark]] = []
        var mainContents: FolderSyncFiles.Contents?
        var mainIsBroken = false
        if FolderSyncFiles.exists(main) {
            switch FolderSyncFiles.read(main, timings: &timings) {
            case .success(let contents):
                mainContents = contents
                remote.append(contents.annotations)
                remoteBookmarks.append(contents.bookmarks)
            case .failure(let problem):
                mainIsBroken = true
                outcome.problems.append(problem.message)
            }
        }
        var conflicts: [String] = []
        for copy in copies {
            switch FolderSyncFiles.read(folder + "/" + copy, timings: &timings) {
            case .success(let contents):
                remote.append(contents.annotations)
                remoteBookmarks.append(contents.bookmarks)
                conflicts.append(copy)
            case .failure(let problem):
                outcome.problems.append(problem.message)
            }
        }
        let (merge, bookmarkMerge) = timings.measure("merge") {
            (AnnotationMerge.merge(local: local, remote: remote), BookmarkMerge.merge(local: localBookmarks, remote: remoteBookmarks))
        }
        let isProtected = entry.protection != .none
        let toSave = merge.changedLocally.map { isProtected ? Self.withoutClearQuote($0) : $0 }
        let bookmarksToSave = bookmarkMerge.changedLocally.map { Self.bookmark($0, isProtected: isProtected) }
        let saveProblem = timings.measure("library save") { () -> String? in
            do throws(LibraryError) {
                if !toSave.isEmpty {
                    try store.saveAnnotations(toSave, publicationID: entry.id, sealing: nil)
                    outcome.saved = toSave.count
                }
                if !bookmarksToSave.isEmpty {
                    try store.saveSyncedBookmarks(bookmarksToSave, publicationID: entry.id)
                    outcome.savedBookmarks = bookmarksToSave.count
                }
                return nil
            } catch {
                return "\(entry.title): \(error.userMessage)"
            }
        }
        if let saveProblem {
            outcome.problems.append(saveProblem)
            return outcome
        }
        guard !mainIsBroken else { return outcome }
        let changed = timings.measure("compare") {
            mainContents.map {
                Self.signature($0.annotations) != Self.signature(merge.merged) || Self.signature($0.bookmarks) != Self.signature(bookmarkMerge.merged)
            } ?? !(merge.merged.isEmpty && bookmarkMerge.merged.isEmpty)
        }
        guard changed || !conflicts.isEmpty else {
            if outcome.problems.isEmpty {
                timings.measure("record") {
                    recordMerged(entry, fileName: name, stamp: mainContents?.stamp ?? FolderSyncFiles.absent,
                                 annotations: merge.merged, bookmarks: bookmarkMerge.merged, store: store)
                }
            }
            return outcome
        }
        let inFolder = isProtected ? merge.merged.map(Self.withoutQuote) : merge.merged
        let writtenBookmarks = isProtected ? bookmarkMerge.merged.map(Self.withoutWords) : bookmarkMerge.merged
        let publication = AnnotatedPublication(identifier: Self.identifier(ofIdentity: entry.identity), title: entry.title,
                                               authors: entry.author.split(separator: ", ").map(String.init), annotations: inFolder)
        let written = timings.measure("folder write") {
            FolderSyncFiles.writeAtomically(AnnotationSyncFile.write(publication, bookmarks: writtenBookmarks, generated: now), to: main)
        }
        let stamp: String
        switch written {
        case .success(let value): stamp = value
        case .failure(let problem):
            outcome.problems.append(problem.message)
            return outcome
        }
        outcome.wrote = true
        for copy in conflicts where unlink(folder + "/" + copy) == 0 {
            outcome.removedConflicts.append(copy)
        }
        if outcome.problems.isEmpty, outcome.removedConflicts.count == conflicts.count {
            timings.measure("record") {
                recordMerged(entry, fileName: name, stamp: stamp, annotations: merge.merged, bookmarks: bookmarkMerge.merged, store: store)
            }
        }
        return outcome
    }

    /// What tells two versions of a set apart: ids, times and deletions (any edit moves the time).
    static func signature(_ annotations: [Annotation]) -> [String: [Int64]] {
        Dictionary(annotations.map { ($0.id, [AnnotationMerge.micros($0.modified), $0.deleted ? 1 : 0]) }, uniquingKeysWith: { first, _ in first })
    }

    /// The annotation as written for a protected book: its place and note, no quote.
    static func withoutQuote(_ annotation: Annotation) -> Annotation {
        var copy = annotation
        copy.target.quote = nil
        copy.target.quoteIsSealed = false
        copy.target.quoteWithheld = false
        return copy
    }

    /// A protected book's annotation as the library can keep it without the book's key: a
    /// clear quote another application wrote into the folder is not kept (its sealed one is).
    static func withoutClearQuote(_ annotation: Annotation) -> Annotation {
        guard annotation.target.quote != nil, !annotation.target.quoteIsSealed else { return annotation }
        var copy = annotation
        copy.target.quote = nil
        return copy
    }

    /// The package identifier a content identity was made from (`id:IDENTIFIER#SIZE`).
    static func identifier(ofIdentity identity: String) -> String? {
        guard identity.hasPrefix("id:"), let hash = identity.lastIndex(of: "#") else { return nil }
        let identifier = String(identity[identity.index(identity.startIndex, offsetBy: 3)..<hash])
        return identifier.isEmpty ? nil : identifier
    }
}
