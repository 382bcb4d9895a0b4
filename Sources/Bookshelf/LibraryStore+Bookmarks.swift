import FoundationEssentials
import LibSQLite
import Shared

/// Bookmarks, per publication (they go with it when it is removed).
extension LibraryStore {
    /// The columns ``bookmark(_:)`` reads.
    static let bookmarkColumns = "id, locator, label, progress, created_at, uid, modified_at, deleted"

    static func bookmark(_ row: SQLiteRow) -> Bookmark {
        Bookmark(id: Int64(row.int(0) ?? 0), locator: row.string(1) ?? "", label: row.string(2) ?? "",
                 progress: row.double(3), createdAt: Date(timeIntervalSince1970: row.double(4) ?? 0), uid: row.string(5) ?? "",
                 modifiedAt: Date(timeIntervalSince1970: row.double(6) ?? 0), deleted: (row.int(7) ?? 0) != 0)
    }

    /// The bookmarks of a publication, in reading order (then oldest first); the deletion
    /// tombstones only when `includingDeleted` (for syncing).
    public func bookmarks(publicationID: Int64, includingDeleted: Bool = false) throws(LibraryError) -> [Bookmark] {
        try locked { database throws(SQLiteError) in
            try database.query("SELECT \(Self.bookmarkColumns) FROM shelf_bookmarks WHERE publication_id = ?"
                               + (includingDeleted ? "" : " AND deleted = 0") + " ORDER BY progress, created_at",
                               [.integer(publicationID)]).map(Self.bookmark)
        }
    }

    /// Adds a bookmark to a publication; returns its row id.
    @discardableResult
    public func addBookmark(_ bookmark: Bookmark, publicationID: Int64) throws(LibraryError) -> Int64 {
        try locked { database throws(SQLiteError) in
            try Self.insert(bookmark, publicationID: publicationID, database)
            return database.lastInsertRowID
        }
    }

    private static func insert(_ bookmark: Bookmark, publicationID: Int64, _ database: SQLiteDatabase) throws(SQLiteError) {
        try database.run("""
            INSERT INTO shelf_bookmarks (publication_id, locator, label, progress, created_at, uid, modified_at, deleted)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [.integer(publicationID), .text(bookmark.locator), .text(bookmark.label),
                  bookmark.progress.map(SQLiteValue.real) ?? .null, .real(bookmark.createdAt.timeIntervalSince1970),
                  .text(bookmark.uid), .real(bookmark.modifiedAt.timeIntervalSince1970), .integer(bookmark.deleted ? 1 : 0)])
    }

    /// Saves bookmarks merged from other devices: each replaces the publication's bookmark
    /// of the same ``Bookmark/uid`` (a tombstone included), or is added.
    public func saveSyncedBookmarks(_ bookmarks: [Bookmark], publicationID: Int64) throws(LibraryError) {
        try writing { database throws(SQLiteError) in
            for bookmark in bookmarks {
                try database.run("""
                    INSERT INTO shelf_bookmarks (publication_id, locator, label, progress, created_at, uid, modified_at, deleted)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (publication_id, uid) DO UPDATE SET locator = excluded.locator, label = excluded.label,
                        progress = excluded.progress, created_at = excluded.created_at, modified_at = excluded.modified_at,
                        deleted = excluded.deleted
                    """, [.integer(publicationID), .text(bookmark.locator), .text(bookmark.deleted ? "" : bookmark.label),
                          bookmark.progress.map(SQLiteValue.real) ?? .null, .real(bookmark.createdAt.timeIntervalSince1970),
                          .text(bookmark.uid), .real(bookmark.modifiedAt.timeIntervalSince1970), .integer(bookmark.deleted ? 1 : 0)])
            }
        }
    }

    /// Adds `bookmark` unless the publication already has one at the same place (``Bookmark/marks(_:)``):
    /// `m` pressed twice on a page keeps one bookmark. Returns the new row id, or the bookmark
    /// already there when nothing was added. The check and the
    /// insert happen in one write transaction, so two writers cannot both add the page.
    public func addBookmarkUnlessPresent(_ bookmark: Bookmark, publicationID: Int64) throws(LibraryError) -> BookmarkAddition {
        guard let place = Locator(jsonString: bookmark.locator) else {
            return .added(try addBookmark(bookmark, publicationID: publicationID))
        }
        return try writing { database throws(SQLiteError) in
            let rows = try database.query("SELECT \(Self.bookmarkColumns) FROM shelf_bookmarks WHERE publication_id = ? AND deleted = 0",
                                          [.integer(publicationID)])
            for row in rows {
                let stored = Self.bookmark(row)
                if stored.marks(place) { return .alreadyThere(stored) }
            }
            try Self.insert(bookmark, publicationID: publicationID, database)
            return .added(database.lastInsertRowID)
        }
    }

    /// Renames a bookmark: `label` is what the list shows for it (nothing happens when it is gone).
    public func renameBookmark(id: Int64, label: String, at time: Date = Date()) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            try database.run("UPDATE shelf_bookmarks SET label = ?, modified_at = ? WHERE id = ? AND deleted = 0",
                             [.text(label), .real(time.timeIntervalSince1970), .integer(id)])
        }
    }

    /// Removes a bookmark (nothing happens when it is already gone): a tombstone is kept, its
    /// label dropped, so that syncing deletes it on the other devices.
    public func deleteBookmark(id: Int64, at time: Date = Date()) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            try database.run("UPDATE shelf_bookmarks SET deleted = 1, label = '', modified_at = ? WHERE id = ? AND deleted = 0",
                             [.real(time.timeIntervalSince1970), .integer(id)])
        }
    }
}

/// What ``LibraryStore/addBookmarkUnlessPresent(_:publicationID:)`` did.
public enum BookmarkAddition: Sendable, Equatable {
    /// The bookmark was added, with this row id.
    case added(Int64)
    /// The place already had this bookmark; nothing was added.
    case alreadyThere(Bookmark)
}
