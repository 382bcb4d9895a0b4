import FoundationEssentials
import LibSQLite
import Shared

/// The library: publications, reading positions, bookmarks and cached book-wide figures, in
/// `$XDG_DATA_HOME/lectern/library.sqlite` beside the LCP tables.
///
/// The bookshelf's tables are prefixed `shelf_` and versioned with `PRAGMA user_version`
/// (LCP keeps its own version in `lcp_schema`). Listing reads one indexed table and never
/// touches the publication files, so the bookshelf opens at once on 10,000 publications.
///
/// One connection, serialised by a lock, shared by the extensions that each keep one concern:
/// publications (and their sort keys), reading positions, bookmarks, text lengths and the
/// full-text index; the tables are in ``LibrarySchema``. Call from any thread, but not from the
/// main actor when it can be avoided (every call is disk I/O).
public final class LibraryStore: @unchecked Sendable {
    /// The default location of the library database.
    public static var defaultPath: String { XDGDirectories.data + "/library.sqlite" }
    /// Where acquired publications are stored; deleting such an entry deletes its file.
    public static var publicationsFolder: String { XDGDirectories.data + "/publications" }

    private let database: SQLiteDatabase
    private let lock = PosixLock()

    /// Opens (creating and migrating when needed) the library at `path`; `":memory:"` for a
    /// private one.
    public init(path: String = LibraryStore.defaultPath) throws(LibraryError) {
        if path != ":memory:", let slash = path.lastIndex(of: "/") {
            XDGDirectories.ensure(String(path[..<slash]))
        }
        do {
            database = try SQLiteDatabase(path: path)
            try database.migrate(LibrarySchema.migrations)
        } catch {
            throw LibraryError(message: error.message)
        }
    }

    /// Runs `body` with the connection, under the lock; SQLite's errors become ``LibraryError``.
    @discardableResult
    func locked<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(LibraryError) -> T {
        do {
            return try lock.withLock { () throws(SQLiteError) -> T in try body(database) }
        } catch {
            throw LibraryError(message: error.message)
        }
    }

    /// Runs `body` under the lock once `table` (a `CREATE TABLE IF NOT EXISTS` statement) has
    /// run: the stores that keep a table of their own beside the library's rows (remembered
    /// passwords, reading statistics, other locations) create it on first use, outside the
    /// numbered migrations.
    @discardableResult
    func locked<T>(ensuring table: String, _ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(LibraryError) -> T {
        try locked { database throws(SQLiteError) in
            try database.execute(table)
            return try body(database)
        }
    }
}
