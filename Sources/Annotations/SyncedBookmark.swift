import FoundationEssentials

/// A bookmark as devices share it through a synced folder (#32): its stable id, its place (a
/// serialised Readium locator), its label, and the times and deletion that decide a merge
/// (``BookmarkMerge``). The library's bookmarks (Bookshelf's `Bookmark`) become these and back.
public struct SyncedBookmark: Sendable, Hashable {
    /// The stable id (a UUID string), the same on every device.
    public var id: String
    /// The place: a `Locator` as JSON.
    public var locator: String
    /// What the bookmark list shows for it; empty for a protected book's in the folder.
    public var label: String
    /// The progress in the publication, for sorting.
    public var progress: Double?
    public var created: Date
    public var modified: Date
    /// A deletion tombstone: it deletes the bookmark on the devices that merge it.
    public var deleted: Bool

    public init(id: String, locator: String, label: String, progress: Double?, created: Date, modified: Date,
                deleted: Bool = false) {
        self.id = id
        self.locator = locator
        self.label = label
        self.progress = progress
        self.created = created
        self.modified = modified
        self.deleted = deleted
    }
}

/// Merges a publication's bookmarks as several devices hold them, by the rules of
/// ``AnnotationMerge``: the union by id, the version modified last winning (to the
/// microsecond), a tombstone beating a live copy of the same time, the local copy kept on a
/// tie, then a total order of the content, so that the result does not depend on the order
/// of the sources.
public enum BookmarkMerge {
    /// What ``merge(local:remote:)`` made.
    public struct Result: Sendable, Equatable {
        /// Every bookmark, tombstones included, ordered by creation then id.
        public var merged: [SyncedBookmark]
        /// The ones the local copy lacks or holds an older version of: what to save locally.
        public var changedLocally: [SyncedBookmark]
    }

    /// Merges `local` with every list of `remote` (one per file read). A label the winner
    /// lacks (a protected book's, written without it) is taken from the local copy.
    public static func merge(local: [SyncedBookmark], remote: [[SyncedBookmark]]) -> Result {
        var localByID: [String: SyncedBookmark] = [:]
        for bookmark in local { localByID[bookmark.id] = choose(localByID[bookmark.id], bookmark, localWins: false) }
        var winners = localByID
        for bookmark in remote.joined() {
            let current = winners[bookmark.id]
            winners[bookmark.id] = choose(current, bookmark, localWins: current != nil && current == localByID[bookmark.id])
        }
        var changed: [SyncedBookmark] = []
        for (id, winner) in winners {
            guard let mine = localByID[id] else {
                changed.append(winner)
                continue
            }
            var kept = winner
            if kept.label.isEmpty, !kept.deleted { kept.label = mine.label }
            winners[id] = kept
            if kept != mine { changed.append(kept) }
        }
        return Result(merged: winners.values.sorted(by: ordered), changedLocally: changed.sorted(by: ordered))
    }

    static func choose(_ current: SyncedBookmark?, _ candidate: SyncedBookmark, localWins: Bool) -> SyncedBookmark {
        guard let current else { return candidate }
        let now = AnnotationMerge.micros(current.modified), then = AnnotationMerge.micros(candidate.modified)
        if now != then { return then > now ? candidate : current }
        if current.deleted != candidate.deleted { return candidate.deleted ? candidate : current }
        if localWins || current == candidate { return current }
        return key(candidate) > key(current) ? candidate : current
    }

    private static func key(_ bookmark: SyncedBookmark) -> String {
        [bookmark.label, bookmark.locator].joined(separator: "\u{1E}")
    }

    private static func ordered(_ first: SyncedBookmark, _ second: SyncedBookmark) -> Bool {
        let one = AnnotationMerge.micros(first.created), two = AnnotationMerge.micros(second.created)
        return one != two ? one < two : first.id < second.id
    }
}
