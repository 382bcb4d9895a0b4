import CLecternSQLite
import FoundationEssentials

/// The schema steps one module contributes to a shared database file, applied in order and
/// recorded by name in `lectern_migrations`, so that modules sharing the file (library,
/// catalogs, LCP) never compete for one version number.
///
/// A step is recorded as `module/name`. Steps are appended, never edited or reordered: a
/// database knows which ran by their names.
public struct SQLiteMigrations: Sendable {
    /// One schema change: SQL run once, in the transaction that records it.
    public struct Step: Sendable {
        public let name: String
        public let sql: String

        public init(_ name: String, _ sql: String) {
            self.name = name
            self.sql = sql
        }
    }

    /// The module's prefix in `lectern_migrations` (`library`, `catalogs`, `lcp`).
    public let module: String
    public let steps: [Step]
    /// How many of the first steps an earlier scheme of the module already applied to the
    /// database (its `PRAGMA user_version`, its own version table, tables that exist), read
    /// each time the database opens. They are recorded as applied, not run again, when the
    /// module has no named step recorded yet. A count above `steps.count` means a newer
    /// Lectern wrote the file: it is refused rather than damaged.
    public let applied: @Sendable (SQLiteDatabase) throws(SQLiteError) -> Int

    public init(module: String, steps: [Step],
                applied: @escaping @Sendable (SQLiteDatabase) throws(SQLiteError) -> Int = { _ in 0 }) {
        self.module = module
        self.steps = steps
        self.applied = applied
    }

    /// The recorded names of the steps, in order.
    public var names: [String] { steps.map { module + "/" + $0.name } }
}

extension SQLiteDatabase {
    /// The table recording each applied step by name.
    static let migrationsTable = """
        CREATE TABLE IF NOT EXISTS lectern_migrations (
            name TEXT PRIMARY KEY NOT NULL,
            applied_at REAL NOT NULL
        )
        """

    /// Brings every module's tables up to date in one IMMEDIATE transaction: either all the
    /// pending steps are applied and recorded, or none is. The names are read under the write
    /// lock, so two processes opening a new file at once apply each step once.
    func applyMigrations(_ sets: [SQLiteMigrations]) throws(SQLiteError) {
        do {
            try transaction { () throws(SQLiteError) in
                try execute(Self.migrationsTable)
                let recorded = Set(try query("SELECT name FROM lectern_migrations").compactMap { $0.string(0) })
                for set in sets { try apply(set, recorded: recorded) }
            }
        } catch {
            switch error {
            case .database(let failure), .body(let failure): throw failure
            }
        }
    }

    private func apply(_ set: SQLiteMigrations, recorded: Set<String>) throws(SQLiteError) {
        let names = set.names
        let own = recorded.filter { $0.hasPrefix(set.module + "/") }
        if let unknown = own.first(where: { !names.contains($0) }) {
            throw SQLiteError(code: SQLITE_ERROR, message: "\(path) was written by a newer Lectern (it has \(unknown))")
        }
        let earlier = try set.applied(self)
        guard earlier <= names.count else {
            throw SQLiteError(code: SQLITE_ERROR, message: "\(path) was written by a newer Lectern (\(set.module) schema \(earlier))")
        }
        let now = SQLiteValue.real(Date().timeIntervalSince1970)
        var done = own
        if own.isEmpty {
            // The earlier scheme's steps are recorded as they were: running them again would
            // fail (the tables exist) or, for the index rebuild, empty what was built since.
            for name in names.prefix(earlier) {
                try run("INSERT INTO lectern_migrations (name, applied_at) VALUES (?, ?)", [.text(name), now])
                done.insert(name)
            }
        }
        for (step, name) in zip(set.steps, names) where !done.contains(name) {
            try execute(step.sql)
            try run("INSERT INTO lectern_migrations (name, applied_at) VALUES (?, ?)", [.text(name), now])
        }
    }

    /// Whether a table (or view) of this name exists: how the schemes that created tables
    /// with `IF NOT EXISTS` are recognised.
    public func hasTable(_ name: String) throws(SQLiteError) -> Bool {
        try !query("SELECT 1 FROM sqlite_master WHERE name = ? AND type IN ('table', 'view')", [.text(name)]).isEmpty
    }
}
