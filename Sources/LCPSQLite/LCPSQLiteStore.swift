import FoundationEssentials
import LCP
import LibSQLite
import Shared

/// LCP's licenses, user keys, rights counters and device ids, in the library database
/// (`$XDG_DATA_HOME/lectern/library.sqlite`, mode 0600 in a 0700 directory, WAL).
///
/// The file is shared with the bookshelf and the catalogs, so LCP's tables are prefixed
/// `lcp_` and made by the named steps of ``migrations`` (module `lcp`). Before named steps,
/// LCP counted its schema in its own `lcp_schema` table: a database of that scheme is
/// recognised by it, and the table is still kept up to date for a Lectern of that scheme.
public final class LCPSQLiteStore: Sendable {
    /// LCP's schema steps, for the composition root that opens the file once.
    public static var migrations: SQLiteMigrations { LCPSQLiteSchema.named }

    /// The database LCP's tables are in.
    public let database: SQLiteQueue

    /// LCP's tables on an open database; their steps are applied when the queue has not yet.
    public init(database: SQLiteQueue) throws(LCPError) {
        self.database = database
        do {
            try database.migrate([Self.migrations])
        } catch {
            throw .repository(error.description)
        }
    }

    /// Opens a database of its own at `path` (creating its folder); `":memory:"` for a
    /// private one. The application opens the file once and uses ``init(database:)``.
    public convenience init(path: String) throws(LCPError) {
        if path != ":memory:", let slash = path.lastIndex(of: "/") {
            XDGDirectories.ensure(String(path[..<slash]))
        }
        let database: SQLiteQueue
        do {
            database = try SQLiteQueue(path: path)
        } catch {
            throw .repository(error.description)
        }
        try self.init(database: database)
    }

    /// Runs `body` with the connection, serialised with every other use of the file.
    @discardableResult
    func withDatabase<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(LCPError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw .repository(error.description)
        }
    }

    /// Runs `body` in one IMMEDIATE transaction (the write lock is taken first, so two
    /// processes cannot interleave a check and an update).
    @discardableResult
    func transaction<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(LCPError) -> T {
        do {
            return try database.write(body)
        } catch {
            throw .repository(error.description)
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

    /// The named steps: the three of `lcp_schema`, each still recording its number there.
    static let named: SQLiteMigrations = {
        let names = ["1-licenses-keys-devices-crl", "2-crl-attempts", "3-user-keys-last-used"]
        let steps = zip(names, migrations).enumerated().map { index, step in
            SQLiteMigrations.Step(step.0, step.1 + """
                ;
                CREATE TABLE IF NOT EXISTS lcp_schema (version INTEGER NOT NULL);
                DELETE FROM lcp_schema;
                INSERT INTO lcp_schema (version) VALUES (\(index + 1));
                """)
        }
        return SQLiteMigrations(module: "lcp", steps: steps) { database throws(SQLiteError) in
            guard try database.hasTable("lcp_schema") else { return 0 }
            return try database.query("SELECT version FROM lcp_schema").first?.int(0) ?? 0
        }
    }()
}
