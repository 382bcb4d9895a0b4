import CLecternSQLite
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A SQLite database file opened with the settings Lectern's stores share: WAL journal, a busy
/// timeout so that two processes can write in turn, foreign keys on, and the file (and its WAL
/// and shared-memory companions) created mode 0600 because it holds licenses and rights.
///
/// One connection is not thread-safe: share it through a ``SQLiteQueue``, which serialises
/// its uses. Statements run by ``run(_:_:)`` and ``query(_:_:)`` are prepared once per
/// connection and reused (``SQLiteStatementCache``).
public final class SQLiteDatabase {
    let handle: OpaquePointer
    public let path: String
    private let statements = SQLiteStatementCache()

    /// Opens (creating when missing) the database at `path`; `":memory:"` for a private one.
    public init(path: String, busyTimeout: Int32 = 5000) throws(SQLiteError) {
        self.path = path
        // SQLite creates the -wal and -shm files with the database file's mode: the file
        // created here first, private, makes all three private. (Not by narrowing the umask,
        // which is the whole process's: a file another thread creates meanwhile would get it.)
        if path != ":memory:" { try Self.createPrivately(path) }
        handle = try Self.connect(path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, busyTimeout: busyTimeout)
        if path != ":memory:" {
            _ = chmod(path, 0o600)
            try enableWAL(within: busyTimeout)
        }
        try execute("PRAGMA foreign_keys = ON")
    }

    /// The connection to `path` opened with `flags`, waiting up to `busyTimeout` ms on a lock.
    private static func connect(_ path: String, flags: Int32, busyTimeout: Int32) throws(SQLiteError) -> OpaquePointer {
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: code, message: "\(path): \(message)")
        }
        sqlite3_busy_timeout(db, busyTimeout)
        return db
    }

    /// Opens another program's database at `path` for reading only (a calibre library's
    /// `metadata.db`): never created, never written, its journal mode and permissions left as
    /// they are; a missing file is an error.
    public init(readingOnly path: String, busyTimeout: Int32 = 5000) throws(SQLiteError) {
        self.path = path
        handle = try Self.connect(path, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, busyTimeout: busyTimeout)
        // Belt and braces: even a statement that would write is refused by SQLite itself.
        try execute("PRAGMA query_only = ON")
    }

    deinit {
        statements.finalizeAll()
        sqlite3_close_v2(handle)
    }

    /// Creates the file at `path` empty, mode 0600, unless it exists (SQLite takes an empty
    /// file for a new database).
    private static func createPrivately(_ path: String) throws(SQLiteError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            // Opening read-only or a missing folder: SQLite's own answer says it better.
            return
        }
        close(descriptor)
    }

    /// Switches to the WAL journal. Changing the journal mode needs the database to itself and
    /// SQLite answers "database is locked" at once, without its busy handler, while another
    /// process opening the same new file holds it: retry for as long as the busy timeout.
    private func enableWAL(within milliseconds: Int32) throws(SQLiteError) {
        var waited: Int32 = 0
        while true {
            do {
                try execute("PRAGMA journal_mode = WAL")
                return
            } catch {
                guard error.code == SQLITE_BUSY || error.code == SQLITE_LOCKED, waited < milliseconds else { throw error }
                usleep(10_000)
                waited += 10
            }
        }
    }

    /// Runs one or more statements without parameters.
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: code, message: text)
        }
    }

    /// Prepares a statement with `?` parameters bound to `values`.
    public func prepare(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw lastError(code) }
        let prepared = SQLiteStatement(statement: statement, database: self)
        try prepared.bind(values)
        return prepared
    }

    /// Runs a statement that returns no rows; returns the number of rows it changed.
    @discardableResult
    public func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int {
        try withCachedStatement(sql, values) { statement throws(SQLiteError) in
            while try statement.step() {}
            return Int(sqlite3_changes(handle))
        }
    }

    /// The rows of a query, each as its column values.
    public func query(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> [SQLiteRow] {
        try withCachedStatement(sql, values) { statement throws(SQLiteError) in
            var rows: [SQLiteRow] = []
            while try statement.step() { rows.append(statement.row) }
            return rows
        }
    }

    /// Runs `body` with the statement of `sql` from the cache (prepared on first use), its
    /// parameters bound to `values`; the statement is reset and returned to the cache after.
    private func withCachedStatement<T>(_ sql: String, _ values: [SQLiteValue],
                                        _ body: (SQLiteStatement) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        let pointer: OpaquePointer
        if let cached = statements.take(sql) {
            pointer = cached
        } else {
            var statement: OpaquePointer?
            let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
            guard code == SQLITE_OK, let statement else { throw lastError(code) }
            pointer = statement
        }
        let statement = SQLiteStatement(statement: pointer, database: self, finalizes: false)
        defer { statements.give(back: pointer, for: sql) }
        try statement.bind(values)
        return try body(statement)
    }

    /// How many statements this connection keeps prepared (tests).
    public var cachedStatementCount: Int { statements.count }

    /// Runs `body` in an IMMEDIATE transaction (the write lock is taken at the start, so two
    /// processes checking then updating a counter cannot interleave), committing when it
    /// returns and rolling back when it throws.
    public func transaction<T, E: Error>(_ body: () throws(E) -> T) throws(SQLiteTransactionError<E>) -> T {
        do { try execute("BEGIN IMMEDIATE") } catch { throw .database(error) }
        let result: T
        do {
            result = try body()
        } catch {
            try? execute("ROLLBACK")
            throw .body(error)
        }
        do { try execute("COMMIT") } catch {
            try? execute("ROLLBACK")
            throw .database(error)
        }
        return result
    }

    /// The id of the last inserted row.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// `PRAGMA user_version`, the schema version that migrations advance.
    public var userVersion: Int {
        (try? query("PRAGMA user_version").first?.int(0)) ?? 0
    }

    /// The numbered scheme the library used before named migrations (``SQLiteQueue`` and
    /// ``SQLiteMigrations``), kept to write databases of that scheme (fixtures, tests of the
    /// upgrade). Brings the schema up to date: runs, in one transaction each, every migration
    /// whose index (1-based) is above `user_version`, then records the new version. A database from
    /// a newer Lectern (higher version than known) is refused rather than damaged.
    ///
    /// Several processes may open a new library at once (four `lectern import` started
    /// together): the version is read again under each transaction's write lock, so each
    /// migration runs once, whoever gets there first.
    public func migrate(_ migrations: [String]) throws(SQLiteError) {
        for (index, sql) in migrations.enumerated() {
            do {
                try transaction { () throws(SQLiteError) in
                    let current = try query("PRAGMA user_version").first?.int(0) ?? 0
                    guard current <= migrations.count else {
                        throw SQLiteError(code: SQLITE_ERROR, message: "\(path) was written by a newer Lectern (schema \(current))")
                    }
                    guard current == index else { return }
                    try execute(sql)
                    try execute("PRAGMA user_version = \(index + 1)")
                }
            } catch {
                switch error {
                case .database(let failure), .body(let failure): throw failure
                }
            }
        }
    }

    func lastError(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// A failure reported by SQLite.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The SQLite result code.
    public let code: Int32
    public let message: String

    public var description: String { "SQLite error \(code): \(message)" }

    /// Whether the database was locked by another connection for longer than the timeout.
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    /// Whether a constraint (unique, foreign key, check) refused the change.
    public var isConstraint: Bool { code & 0xff == SQLITE_CONSTRAINT }
}

/// Why a transaction failed: in SQLite, or in the caller's body.
public enum SQLiteTransactionError<Body: Error>: Error {
    case database(SQLiteError)
    case body(Body)
}
