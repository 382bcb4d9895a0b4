import FoundationEssentials
import LibSQLite
import Shared

/// A catalog the person saved under a name, with what signs in to it.
public struct SavedCatalog: Sendable, Hashable {
    public var name: String
    public var url: String
    public var username: String?
    /// Secrets: kept in the library database only (mode 0600), never shown or logged.
    public var password: String?
    /// How the catalog was last signed in to (`http://opds-spec.org/auth/basic`, …), so that
    /// later requests carry the credentials at once instead of after a 401.
    public var authenticationType: String?
    /// The OAuth token endpoint of the catalog's authentication document.
    public var tokenURL: String?
    public var accessToken: String?
    /// The LCP user key the token response carried (`lcp_hashed_passphrase`).
    public var lcpHashedPassphrase: String?
    public var tokenExpiresAt: Date?
    public var addedAt: Date

    public init(name: String, url: String, username: String? = nil, password: String? = nil,
                authenticationType: String? = nil, tokenURL: String? = nil, accessToken: String? = nil,
                lcpHashedPassphrase: String? = nil, tokenExpiresAt: Date? = nil, addedAt: Date = Date()) {
        self.name = name
        self.url = url
        self.username = username
        self.password = password
        self.authenticationType = authenticationType
        self.tokenURL = tokenURL
        self.accessToken = accessToken
        self.lcpHashedPassphrase = lcpHashedPassphrase
        self.tokenExpiresAt = tokenExpiresAt
        self.addedAt = addedAt
    }
}

/// The saved catalogs, in the library database (`catalog_sources`, beside the bookshelf's and
/// LCP's tables; the file is mode 0600, which is why passwords and tokens may live there).
///
/// The table is made by the named step `catalogs/1-sources` (``migrations``), recorded beside
/// the other modules' steps; before named steps it was created with `IF NOT EXISTS`, so an
/// existing table is recognised as that step.
public final class CatalogStore: Sendable {
    /// The catalogs' schema steps, for the composition root that opens the file once.
    public static let migrations = SQLiteMigrations(module: "catalogs", steps: [
        .init("1-sources", """
            CREATE TABLE IF NOT EXISTS catalog_sources (
                name TEXT PRIMARY KEY NOT NULL,
                url TEXT NOT NULL,
                username TEXT,
                password TEXT,
                auth_type TEXT,
                token_url TEXT,
                access_token TEXT,
                lcp_hashed_passphrase TEXT,
                token_expires_at REAL,
                added_at REAL NOT NULL
            )
            """),
    ]) { database throws(SQLiteError) in try database.hasTable("catalog_sources") ? 1 : 0 }

    /// The database the catalogs are in.
    public let database: SQLiteQueue

    /// The catalogs on an open database; their step is applied when the queue has not yet.
    public init(database: SQLiteQueue) throws(LibraryError) {
        try LibraryStore.migrate(database, [Self.migrations])
        self.database = database
    }

    /// Opens a database of its own at `path` (tests; the application opens the file once and
    /// uses ``init(database:)``).
    public convenience init(path: String) throws(LibraryError) {
        try self.init(database: LibraryStore.openQueue(path: path))
    }

    @discardableResult
    private func locked<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(LibraryError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw LibraryError(message: error.message)
        }
    }

    private static let columns = "name, url, username, password, auth_type, token_url, access_token, lcp_hashed_passphrase, token_expires_at, added_at"

    private static func catalog(_ row: SQLiteRow) -> SavedCatalog {
        SavedCatalog(name: row.string(0) ?? "", url: row.string(1) ?? "", username: row.string(2), password: row.string(3),
                     authenticationType: row.string(4), tokenURL: row.string(5), accessToken: row.string(6),
                     lcpHashedPassphrase: row.string(7), tokenExpiresAt: row.double(8).map { Date(timeIntervalSince1970: $0) },
                     addedAt: Date(timeIntervalSince1970: row.double(9) ?? 0))
    }

    /// Every saved catalog, by name.
    public func all() throws(LibraryError) -> [SavedCatalog] {
        try locked { database throws(SQLiteError) in
            try database.query("SELECT \(Self.columns) FROM catalog_sources ORDER BY name COLLATE NOCASE").map(Self.catalog)
        }
    }

    public func catalog(named name: String) throws(LibraryError) -> SavedCatalog? {
        try locked { database throws(SQLiteError) in
            try database.query("SELECT \(Self.columns) FROM catalog_sources WHERE name = ?", [.text(name)]).first.map(Self.catalog)
        }
    }

    /// Saves `catalog`, replacing the one of the same name.
    public func save(_ catalog: SavedCatalog) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            try database.run("INSERT OR REPLACE INTO catalog_sources (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                             [.text(catalog.name), .text(catalog.url), .text(catalog.username), .text(catalog.password),
                              .text(catalog.authenticationType), .text(catalog.tokenURL), .text(catalog.accessToken),
                              .text(catalog.lcpHashedPassphrase),
                              catalog.tokenExpiresAt.map { .real($0.timeIntervalSince1970) } ?? .null,
                              .real(catalog.addedAt.timeIntervalSince1970)])
        }
    }

    /// Records how the catalog signs in and its current token (nil: signed out).
    public func setSignIn(name: String, type: String?, tokenURL: String?, accessToken: String?,
                          lcpHashedPassphrase: String?, tokenExpiresAt: Date?) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            try database.run("""
                UPDATE catalog_sources SET auth_type = ?, token_url = ?, access_token = ?, lcp_hashed_passphrase = ?,
                    token_expires_at = ?
                WHERE name = ?
                """, [.text(type), .text(tokenURL), .text(accessToken), .text(lcpHashedPassphrase),
                      tokenExpiresAt.map { .real($0.timeIntervalSince1970) } ?? .null, .text(name)])
        }
    }

    /// Removes a catalog and its secrets; false when there was none of that name.
    @discardableResult
    public func remove(named name: String) throws(LibraryError) -> Bool {
        try locked { database throws(SQLiteError) in
            try database.run("DELETE FROM catalog_sources WHERE name = ?", [.text(name)]) > 0
        }
    }
}
