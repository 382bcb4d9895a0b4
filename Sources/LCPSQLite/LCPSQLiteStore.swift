import FoundationEssentials
import LCP
import LibSQLite
import Shared

/// The SQLite file holding LCP licenses, user keys, rights counters and device ids:
/// `$XDG_DATA_HOME/lectern/library.sqlite` by default (mode 0600 in a 0700 directory, WAL).
///
/// The file is shared with the bookshelf, so LCP's tables are prefixed `lcp_` and LCP's schema
/// version lives in its own `lcp_schema` table rather than in `PRAGMA user_version` (which the
/// bookshelf may use for its own tables).
///
/// A connection serves one thread at a time: every use goes through ``withDatabase(_:)``.
public final class LCPSQLiteStore: @unchecked Sendable {
    /// The default location of the library database.
    public static var defaultPath: String { XDGDirectories.data + "/library.sqlite" }

    private let database: SQLiteDatabase
    private let lock = PosixLock()

    /// Opens (creating and migrating when needed) the database at `path`; `":memory:"` for a
    /// private one.
    public init(path: String = LCPSQLiteStore.defaultPath) throws(LCPError) {
        if path != ":memory:", let slash = path.lastIndex(of: "/") {
            XDGDirectories.ensure(String(path[..<slash]))
        }
        do {
            database = try SQLiteDatabase(path: path)
        } catch {
            throw .repository(error.description)
        }
        try LCPSQLiteSchema.migrate(database)
    }

    /// Runs `body` with the connection, serialised with every other use of this store.
    @discardableResult
    func withDatabase<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(LCPError) -> T {
        do {
            return try lock.withLock { () throws(SQLiteError) -> T in try body(database) }
        } catch {
            throw .repository(error.description)
        }
    }

    /// Runs `body` in one IMMEDIATE transaction (the write lock is taken first, so two
    /// processes cannot interleave a check and an update).
    @discardableResult
    func transaction<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(LCPError) -> T {
        try withDatabase { database throws(SQLiteError) -> T in
            do throws(SQLiteTransactionError<SQLiteError>) {
                return try database.transaction { () throws(SQLiteError) -> T in try body(database) }
            } catch {
                switch error {
                case .database(let failure), .body(let failure): throw failure
                }
            }
        }
    }

    /// The current time as stored in the tables.
    static func now() -> String { RFC3339Date.string(Date()) }
}

/// LCP's tables and their migrations (lcp.md §15).
enum LCPSQLiteSchema {
    /// Each migration brings the schema from version *i* to *i*+1; append, never edit.
    static let migrations: [String] = [
        """
        CREATE TABLE lcp_licenses (
            license_id TEXT PRIMARY KEY NOT NULL,
            provider TEXT NOT NULL,
            user_id TEXT,
            license_json BLOB NOT NULL,
            issued TEXT NOT NULL,
            updated TEXT,
            rights_start TEXT,
            rights_end TEXT,
            copies_left INTEGER CHECK (copies_left IS NULL OR copies_left >= 0),
            prints_left INTEGER CHECK (prints_left IS NULL OR prints_left >= 0),
            publication_path TEXT,
            device_registered INTEGER NOT NULL DEFAULT 0,
            status TEXT,
            status_json BLOB,
            status_checked_at TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        );
        CREATE TABLE lcp_user_keys (
            license_id TEXT NOT NULL,
            provider TEXT NOT NULL,
            user_id TEXT,
            user_key_hex TEXT NOT NULL,
            created_at TEXT NOT NULL,
            last_used_at TEXT NOT NULL,
            UNIQUE (license_id, user_key_hex)
        );
        CREATE INDEX lcp_user_keys_provider_user ON lcp_user_keys (provider, user_id);
        CREATE TABLE lcp_device (
            provider TEXT PRIMARY KEY NOT NULL,
            device_id TEXT NOT NULL
        );
        CREATE TABLE lcp_crl (
            url TEXT PRIMARY KEY NOT NULL,
            der BLOB NOT NULL,
            this_update TEXT,
            next_update TEXT,
            retrieved_at TEXT NOT NULL
        );
        """,
        """
        CREATE TABLE lcp_crl_attempts (
            url TEXT PRIMARY KEY NOT NULL,
            attempted_at TEXT NOT NULL,
            reason TEXT
        );
        """,
        """
        CREATE INDEX lcp_user_keys_last_used ON lcp_user_keys (last_used_at);
        """,
    ]

    static func migrate(_ database: SQLiteDatabase) throws(LCPError) {
        do throws(SQLiteTransactionError<SQLiteError>) {
            try database.transaction { () throws(SQLiteError) in
                try database.execute("CREATE TABLE IF NOT EXISTS lcp_schema (version INTEGER NOT NULL)")
            }
            for (index, sql) in migrations.enumerated() {
                try database.transaction { () throws(SQLiteError) in
                    // Checked under the write lock: another process may be migrating too.
                    let current = try database.query("SELECT version FROM lcp_schema").first?.int(0) ?? 0
                    guard current == index else { return }
                    try database.execute(sql)
                    try database.run("DELETE FROM lcp_schema")
                    try database.run("INSERT INTO lcp_schema (version) VALUES (?)", [.integer(index + 1)])
                }
            }
        } catch {
            switch error {
            case .database(let failure), .body(let failure): throw .repository(failure.description)
            }
        }
        // A failed read is the database's error, not "schema 0" (which would name the wrong cause).
        let version: Int
        do throws(SQLiteError) {
            version = try database.query("SELECT version FROM lcp_schema").first?.int(0) ?? 0
        } catch {
            throw .repository(error.description)
        }
        guard version == migrations.count else {
            throw .repository("\(database.path) holds LCP tables of schema \(version), this Lectern knows \(migrations.count)")
        }
    }
}
