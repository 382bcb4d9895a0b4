import Bookshelf
import FoundationEssentials
import LCP
import LCPSQLite
import LibSQLite
import Synchronization

/// The library database: the one SQLite file of the library, the saved catalogs and LCP
/// (`LibraryStore.defaultPath`), opened once per process on one ``SQLiteQueue`` with every
/// module's named migrations applied in one transaction, and handed to the stores of the
/// three modules, which share its connection and statement cache.
struct LibraryDatabase: Sendable {
    let path: String
    let library: LibraryStore
    let catalogs: CatalogStore
    let lcp: LCPSQLiteStore

    /// Every module's schema steps, in the order they are applied on a new file.
    static let migrations = [LibraryStore.migrations, CatalogStore.migrations, LCPSQLiteStore.migrations]

    /// Opens (creating when missing) the database at `path` and brings every module's tables
    /// up to date; a database written by an earlier scheme is recognised and migrated.
    static func open(path: String) -> Result<LibraryDatabase, LibraryError> {
        LibraryStore.ensureFolder(of: path)
        let queue: SQLiteQueue
        do {
            queue = try SQLiteQueue(path: path, migrations: migrations)
        } catch {
            return .failure(LibraryError(message: error.message))
        }
        // The steps are applied: the stores find their modules migrated and run nothing.
        let library: LibraryStore, catalogs: CatalogStore, lcp: LCPSQLiteStore
        do throws(LibraryError) {
            library = try LibraryStore(database: queue)
            catalogs = try CatalogStore(database: queue)
        } catch {
            return .failure(error)
        }
        do throws(LCPError) {
            lcp = try LCPSQLiteStore(database: queue)
        } catch {
            return .failure(LibraryError(message: error.userMessage))
        }
        return .success(LibraryDatabase(path: path, library: library, catalogs: catalogs, lcp: lcp))
    }
}

extension LibraryDatabase {
    private static let opened = Mutex<Result<LibraryDatabase, LibraryError>?>(nil)

    /// The process's library database, opened at the default path on first use and then
    /// shared by every part of the command (the interface, LCP, the catalogs): one
    /// connection, one migration check per process. A failure is kept too: the command
    /// reports it where it needs the database.
    static var process: Result<LibraryDatabase, LibraryError> {
        opened.withLock { opened in
            if let opened { return opened }
            let result = open(path: LibraryStore.defaultPath)
            opened = result
            return result
        }
    }

    /// The saved catalogs of ``process``.
    static func catalogs() throws(LibraryError) -> CatalogStore {
        try process.get().catalogs
    }
}
