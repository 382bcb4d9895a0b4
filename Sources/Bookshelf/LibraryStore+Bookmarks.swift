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

    /// Removes a bookmark (nothing happens when it is already gone).
    public func deleteBookmark(id: Int64) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            try database.run("DELETE FROM shelf_bookmarks WHERE id = ?", [.integer(id)])
        }
    }
}
