import FoundationEssentials
import LibSQLite
#if canImport(Glibc)
import Glibc
#endif

/// The calibre libraries `lectern import --calibre` imported (#34), remembered with what their
/// `metadata.db` looked like then, so that the next start re-imports one only when calibre
/// changed it. Added by the library's named step `library/10-calibre-sources`.
enum CalibreSourcesSchema {
    static let table = """
        CREATE TABLE IF NOT EXISTS shelf_calibre_libraries (
            folder TEXT PRIMARY KEY NOT NULL,
            database_mtime INTEGER NOT NULL,
            database_size INTEGER NOT NULL,
            last_modified TEXT
        );
        """
}

/// What a calibre library's `metadata.db` looked like: its modification time and size (a
/// stat, cheap enough for every start) and the latest `books.last_modified` (read only when
/// the first two changed: calibre also writes the file when no book changed).
public struct CalibreStamp: Sendable, Hashable {
    /// Nanoseconds since the epoch.
    public var databaseMTime: Int64
    public var databaseSize: Int64
    public var lastModified: String?

    public init(databaseMTime: Int64, databaseSize: Int64, lastModified: String?) {
        self.databaseMTime = databaseMTime
        self.databaseSize = databaseSize
        self.lastModified = lastModified
    }

    /// Whether the file is the same by its stat alone.
    public func sameFile(as other: CalibreStamp) -> Bool {
        (databaseMTime, databaseSize) == (other.databaseMTime, other.databaseSize)
    }
}

extension CalibreLibrary {
    /// `metadata.db`'s modification time and size; nil when it cannot be looked at.
    public static func fileStamp(folder: String) -> CalibreStamp? {
        var info = stat()
        guard stat(folder + "/metadata.db", &info) == 0 else { return nil }
        let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return CalibreStamp(databaseMTime: nanoseconds, databaseSize: Int64(info.st_size), lastModified: nil)
    }

    /// `folder` with symbolic links followed, as ``folder`` is; nil when it does not exist.
    public static func resolved(_ folder: String) -> String? {
        guard let resolved = realpath(folder, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The library's full stamp: the file's, and the latest `books.last_modified` (read-only).
    public func stamp() throws(LibraryError) -> CalibreStamp {
        guard var stamp = Self.fileStamp(folder: folder) else {
            throw LibraryError(message: "\(folder) is not a calibre library: it has no metadata.db")
        }
        do throws(SQLiteError) {
            let database = try SQLiteDatabase(readingOnly: folder + "/metadata.db")
            stamp.lastModified = try database.query("SELECT MAX(last_modified) FROM books").first?.string(0)
        } catch {
            throw LibraryError(message: "the calibre library cannot be read: \(error.message)")
        }
        return stamp
    }
}

extension LibraryStore {
    /// The remembered calibre libraries, by folder (resolved, as ``CalibreLibrary/folder``).
    public func calibreSources() throws(LibraryError) -> [(folder: String, stamp: CalibreStamp)] {
        try locked { database throws(SQLiteError) in
            try database.query("SELECT folder, database_mtime, database_size, last_modified FROM shelf_calibre_libraries ORDER BY folder")
                .compactMap { row in
                    guard let folder = row.string(0), let mtime = row.int(1), let size = row.int(2) else { return nil }
                    return (folder, CalibreStamp(databaseMTime: Int64(mtime), databaseSize: Int64(size), lastModified: row.string(3)))
                }
        }
    }

    /// Remembers (or updates) a calibre library and its stamp.
    public func rememberCalibre(folder: String, stamp: CalibreStamp) throws(LibraryError) {
        try writing { database throws(SQLiteError) in
            try database.run("""
                INSERT INTO shelf_calibre_libraries (folder, database_mtime, database_size, last_modified) VALUES (?, ?, ?, ?)
                ON CONFLICT (folder) DO UPDATE SET database_mtime = excluded.database_mtime,
                    database_size = excluded.database_size, last_modified = excluded.last_modified
                """, [.text(folder), .integer(stamp.databaseMTime), .integer(stamp.databaseSize), .text(stamp.lastModified)])
        }
    }
}
