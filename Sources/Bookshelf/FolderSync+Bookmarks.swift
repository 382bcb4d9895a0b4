import Annotations
import FoundationEssentials
import Shared

/// The bookmarks of ``AnnotationFolderSync``: the library's `Bookmark` as the folder's
/// ``SyncedBookmark`` and back, and what a protected book's bookmark keeps in the folder.
extension AnnotationFolderSync {
    static func synced(_ bookmark: Bookmark) -> SyncedBookmark {
        SyncedBookmark(id: bookmark.uid, locator: bookmark.locator, label: bookmark.label, progress: bookmark.progress,
                       created: bookmark.createdAt, modified: bookmark.modifiedAt, deleted: bookmark.deleted)
    }

    /// The library's bookmark of a merged one; a protected book's keeps no words of its place
    /// (another application may have written some into the folder).
    static func bookmark(_ synced: SyncedBookmark, isProtected: Bool) -> Bookmark {
        let kept = isProtected ? withoutPlaceWords(synced) : synced
        return Bookmark(locator: kept.locator, label: kept.label, progress: kept.progress, createdAt: kept.created,
                        uid: kept.id, modifiedAt: kept.modified, deleted: kept.deleted)
    }

    /// A protected book's bookmark as written into the folder: its place without the words
    /// there, and no label (a label may quote the book); the devices keep their own labels.
    static func withoutWords(_ bookmark: SyncedBookmark) -> SyncedBookmark {
        var copy = withoutPlaceWords(bookmark)
        copy.label = ""
        return copy
    }

    static func withoutPlaceWords(_ bookmark: SyncedBookmark) -> SyncedBookmark {
        var copy = bookmark
        if var locator = Locator(jsonString: bookmark.locator) {
            locator.text = Locator.Text()
            copy.locator = locator.jsonString
        }
        return copy
    }

    /// What tells two versions of a set of bookmarks apart: ids, times and deletions.
    static func signature(_ bookmarks: [SyncedBookmark]) -> [String: [Int64]] {
        Dictionary(bookmarks.map { ($0.id, [AnnotationMerge.micros($0.modified), $0.deleted ? 1 : 0]) }, uniquingKeysWith: { first, _ in first })
    }
}
