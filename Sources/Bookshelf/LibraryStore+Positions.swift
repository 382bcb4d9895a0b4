import FoundationEssentials
import LibSQLite
import Shared

/// Reading positions: where each publication was left, and when it was last opened.
extension LibraryStore {
    /// Records the reading position and progress, and that the publication was opened now.
    /// Fails when the publication is no longer in the library (removed meanwhile): the
    /// position was not kept, and the reader says so.
    public func savePosition(id: Int64, locator: String, progress: Double?) throws(LibraryError) {
        let changed = try locked { database throws(SQLiteError) in
            try database.run("UPDATE shelf_publications SET locator = ?, progress = COALESCE(?, progress), opened_at = ? WHERE id = ?",
                             [.text(locator), progress.map(SQLiteValue.real) ?? .null, .real(Date().timeIntervalSince1970), .integer(id)])
        }
        if changed == 0 { throw LibraryError(message: "the publication is no longer in the library") }
    }

    /// Records that the publication was opened now.
    public func markOpened(id: Int64) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            try database.run("UPDATE shelf_publications SET opened_at = ? WHERE id = ?", [.real(Date().timeIntervalSince1970), .integer(id)])
        }
    }
}
