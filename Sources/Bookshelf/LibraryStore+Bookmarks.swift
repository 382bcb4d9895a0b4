import FoundationEssentials
import LibSQLite
import Shared

/// Bookmarks, per publication (they go with it when it is removed).
extension LibraryStore {
    /// The bookmarks of a publication, in reading order (then oldest first).
    public func bookmarks(publicationID: Int64) throws(LibraryError) -> [Bookmark] {
        try locked { database throws(SQLiteError) in
            try database.query("SELECT id, locator, label, progress, created_at FROM shelf_bookmarks WHERE publication_id = ? ORDER BY progress, created_at",
                               [.integer(publicationID)]).map { row in
                Bookmark(id: Int64(row.int(0) ?? 0), locator: row.string(1) ?? "", label: row.string(2) ?? "",
                         progress: row.double(3), createdAt: Date(timeIntervalSince1970: row.double(4) ?? 0))
            }
        }
    }

    /// Adds a bookmark to a publication; returns its row id.
    @discardableResult
    public func addBookmark(_ bookmark: Bookmark, publicationID: Int64) throws(LibraryError) -> Int64 {
        try locked { database throws(SQLiteError) in
            try database.run("INSERT INTO shelf_bookmarks (publication_id, locator, label, progress, created_at) VALUES (?, ?, ?, ?, ?)",
                             [.integer(publicationID), .text(bookmark.locator), .text(bookmark.label),
                              bookmark.progress.map(SQLiteValue.real) ?? .null, .real(bookmark.createdAt.timeIntervalSince1970)])
            return database.lastInsertRowID
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
            let rows = try database.query("SELECT id, locator, label, progress, created_at FROM shelf_bookmarks WHERE publication_id = ?",
                                          [.integer(publicationID)])
            for row in rows {
                let stored = Bookmark(id: Int64(row.int(0) ?? 0), locator: row.string(1) ?? "", label: row.string(2) ?? "",
                                      progress: row.double(3), createdAt: Date(timeIntervalSince1970: row.double(4) ?? 0))
                if stored.marks(place) { return .alreadyThere(stored) }
            }
            try database.run("INSERT INTO shelf_bookmarks (publication_id, locator, label, progress, created_at) VALUES (?, ?, ?, ?, ?)",
                             [.integer(publicationID), .text(bookmark.locator), .text(bookmark.label),
                              bookmark.progress.map(SQLiteValue.real) ?? .null, .real(bookmark.createdAt.timeIntervalSince1970)])
            return .added(database.lastInsertRowID)
        }
    }

    /// Renames a bookmark: `label` is what the list shows for it (nothing happens when it is gone).
    public func renameBookmark(id: Int64, label: String) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            try database.run("UPDATE shelf_bookmarks SET label = ? WHERE id = ?", [.text(label), .integer(id)])
        }
    }

    /// Removes a bookmark (nothing happens when it is already gone).
    public func deleteBookmark(id: Int64) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            try database.run("DELETE FROM shelf_bookmarks WHERE id = ?", [.integer(id)])
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
