import FoundationEssentials
import LibSQLite
import Shared

/// The library: publications, reading positions, bookmarks and cached book-wide figures, in
/// `$XDG_DATA_HOME/lectern/library.sqlite` beside the catalogs' and LCP's tables.
///
/// The bookshelf's tables are prefixed `shelf_` and made by the named steps of
/// ``migrations`` (module `library`), recorded in the file's `lectern_migrations` beside the
/// other modules' steps. Listing reads one indexed table and never touches the publication
/// files, so the bookshelf opens at once on 10,000 publications.
///
/// The file's one ``SQLiteQueue`` is shared by the extensions that each keep one concern:
/// publications (and their sort keys), reading positions, bookmarks, text lengths and the
/// full-text index; the tables are in ``LibrarySchema``. Call from any thread, but not from the
/// main actor when it can be avoided (every call is disk I/O).
public final class LibraryStore: Sendable {
    /// The default location of the library database (the one file of the library, catalogs
    /// and LCP).
    public static var defaultPath: String { XDGDirectories.data + "/library.sqlite" }
    /// Where acquired publications are stored; deleting such an entry deletes its file.
    public static var publicationsFolder: String { XDGDirectories.data + "/publications" }

    /// The library's schema steps, for the composition root that opens the file once with
    /// every module's steps.
    public static var migrations: SQLiteMigrations { LibrarySchema.named }

    /// The database the library's tables are in.
    public let database: SQLiteQueue

    /// The library on an open database; its steps are applied when the queue has not yet.
    public init(database: SQLiteQueue) throws(LibraryError) {
        try Self.migrate(database, [Self.migrations])
        self.database = database
    }

    /// Opens (creating and migrating when needed) a database of its own at `path`;
    /// `":memory:"` for a private one. The application opens the file once and uses
    /// ``init(database:)``.
    public convenience init(path: String) throws(LibraryError) {
        try self.init(database: Self.openQueue(path: path))
    }

    /// Opens a queue on the database at `path` (creating its folder), for a store of its own.
    static func openQueue(path: String) throws(LibraryError) -> SQLiteQueue {
        ensureFolder(of: path)
        do {
            return try SQLiteQueue(path: path)
        } catch {
            throw LibraryError(message: error.message)
        }
    }

    /// Applies `migrations` not yet applied to `database`; SQLite's errors become ``LibraryError``.
    static func migrate(_ database: SQLiteQueue, _ migrations: [SQLiteMigrations]) throws(LibraryError) {
        do {
            try database.migrate(migrations)
        } catch {
            throw LibraryError(message: error.message)
        }
    }

    /// Creates the folder of a database file (mode 0700), as XDG asks.
    public static func ensureFolder(of path: String) {
        if path != ":memory:", let slash = path.lastIndex(of: "/") {
            XDGDirectories.ensure(String(path[..<slash]))
        }
    }

    /// Runs `body` with the connection, serialised with every other use of the file;
    /// SQLite's errors become ``LibraryError``.
    @discardableResult
    func locked<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(LibraryError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw LibraryError(message: error.message)
        }
    }

    /// Runs `body` in one write transaction of the file.
    @discardableResult
    func writing<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(LibraryError) -> T {
        do {
            return try database.write(body)
        } catch {
            throw LibraryError(message: error.message)
        }
    }
}
