import FoundationEssentials
import LibSQLite

/// The other places a publication of the library has been seen: a copy imported from another
/// folder is a second location of the same book (the same ``ContentIdentity``), not a reason to
/// move the entry. When the entry's own file disappears, a location that still exists takes
/// its place.
///
/// Kept in `shelf_locations` (the library's named step `library/4-locations`), over the
/// library's database queue. A location goes with its publication (`ON DELETE CASCADE`).
public struct LibraryLocations: Sendable {
    public let store: LibraryStore

    public init(store: LibraryStore) {
        self.store = store
    }

    /// Created by the library's named step (``LibrarySchema/named``).
    static let table = """
        CREATE TABLE IF NOT EXISTS shelf_locations (
            publication_id INTEGER NOT NULL REFERENCES shelf_publications (id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            added_at REAL NOT NULL,
            PRIMARY KEY (publication_id, path)
        )
        """

    @discardableResult
    private func locked<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(LibraryError) -> T {
        try store.locked(body)
    }

    /// The other locations of a publication, oldest first (its own path is not among them).
    public func otherPaths(publicationID: Int64) throws(LibraryError) -> [String] {
        try locked { database throws(SQLiteError) in
            try database.query("SELECT path FROM shelf_locations WHERE publication_id = ? ORDER BY added_at, path",
                               [.integer(publicationID)]).compactMap { $0.string(0) }
        }
    }

    /// The other locations of every publication that has some, by publication id (one query,
    /// for the bookshelf's look at which files are missing).
    public func allOtherPaths() throws(LibraryError) -> [Int64: [String]] {
        try locked { database throws(SQLiteError) in
            var paths: [Int64: [String]] = [:]
            for row in try database.query("SELECT publication_id, path FROM shelf_locations ORDER BY added_at, path") {
                guard let id = row.int(0), let path = row.string(1) else { continue }
                paths[Int64(id), default: []].append(path)
            }
            return paths
        }
    }

    /// Records that the publication is also at `path`.
    public func add(path: String, publicationID: Int64) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            try database.run("INSERT OR IGNORE INTO shelf_locations (publication_id, path, added_at) VALUES (?, ?, ?)",
                             [.integer(publicationID), .text(path), .real(Date().timeIntervalSince1970)])
        }
    }

    /// Points the publication at `path` (its file was found there) and drops `path` from its
    /// other locations; its reading position, bookmarks and statistics stay. Returns the entry.
    @discardableResult
    public func relink(publicationID: Int64, to path: String) throws(LibraryError) -> LibraryEntry? {
        try locked { database throws(SQLiteError) in
            try database.run("UPDATE shelf_publications SET path = ? WHERE id = ?", [.text(path), .integer(publicationID)])
            try database.run("DELETE FROM shelf_locations WHERE publication_id = ? AND path = ?", [.integer(publicationID), .text(path)])
            return try database.query("SELECT \(LibraryStore.columns) FROM shelf_publications WHERE id = ?", [.integer(publicationID)])
                .first.map(LibraryStore.entry)
        }
    }
}
