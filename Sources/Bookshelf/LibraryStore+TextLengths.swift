import FoundationEssentials
import LibSQLite
import Shared

/// Cached book-wide figures.
extension LibraryStore {
    /// The text length of each reading-order item, cached per content identity (computed
    /// once in the background, for book percentages).
    public func textLengths(identity: String) throws(LibraryError) -> [Int]? {
        try locked { database throws(SQLiteError) in
            guard let text = try database.query("SELECT lengths FROM shelf_text_lengths WHERE identity = ?", [.text(identity)]).first?.string(0)
            else { return nil }
            return text.split(separator: ",").compactMap { Int($0) }
        }
    }

    /// Caches the text lengths of a publication's reading-order items.
    public func setTextLengths(_ lengths: [Int], identity: String) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            try database.run("INSERT OR REPLACE INTO shelf_text_lengths (identity, lengths) VALUES (?, ?)",
                             [.text(identity), .text(lengths.map(String.init).joined(separator: ","))])
        }
    }
}
