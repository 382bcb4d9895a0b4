import FoundationEssentials
import LibSQLite

/// A place waiting to be pushed to the progress sync server (one per book: a newer place
/// replaces it).
public struct QueuedSyncPlace: Sendable, Equatable {
    /// The book's kosync document id.
    public var document: String
    /// The protocol's `progress` (a page number or an XPointer).
    public var progress: String
    public var percentage: Double
    /// When it was queued (seconds since 1970): the queue keeps four weeks.
    public var queuedAt: Double

    public init(document: String, progress: String, percentage: Double, queuedAt: Double) {
        self.document = document
        self.progress = progress
        self.percentage = percentage
        self.queuedAt = queuedAt
    }
}

/// Progress sync's state in the library database (#32): its settings (the server, the user
/// name, the key — the MD5 of the password, never the password —, this device's name and id)
/// and the queue of places not yet pushed.
///
/// Its tables are the named steps of the module `progress-sync`, applied the first time they
/// are used: the file is 0600 like the rest of the library.
extension LibraryStore {
    /// The module's schema steps (append, never edit).
    public static let syncMigrations = SQLiteMigrations(module: "progress-sync", steps: [
        .init("1-kosync", """
            CREATE TABLE sync_settings (
                key TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL
            );
            CREATE TABLE sync_queue (
                document TEXT PRIMARY KEY NOT NULL,
                progress TEXT NOT NULL,
                percentage REAL NOT NULL,
                queued_at REAL NOT NULL
            );
            """),
    ])

    /// Runs `body` with the sync tables present.
    @discardableResult
    private func syncing<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(LibraryError) -> T {
        try Self.migrate(database, [Self.syncMigrations])
        return try writing(body)
    }

    /// The sync setting `key`, nil when unset.
    public func syncSetting(_ key: String) throws(LibraryError) -> String? {
        try syncing { database throws(SQLiteError) in
            try database.query("SELECT value FROM sync_settings WHERE key = ?", [.text(key)]).first?.string(0)
        }
    }

    /// Sets (or, with nil, removes) sync settings, all in one transaction.
    public func setSyncSettings(_ values: [String: String?]) throws(LibraryError) {
        try syncing { database throws(SQLiteError) in
            for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                if let value {
                    try database.run("INSERT INTO sync_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                                     [.text(key), .text(value)])
                } else {
                    try database.run("DELETE FROM sync_settings WHERE key = ?", [.text(key)])
                }
            }
        }
    }

    /// The value of `key`, set to `make()` first when unset (this device's id: drawn once).
    public func syncSetting(_ key: String, orSet make: () -> String) throws(LibraryError) -> String {
        try syncing { database throws(SQLiteError) in
            if let value = try database.query("SELECT value FROM sync_settings WHERE key = ?", [.text(key)]).first?.string(0) {
                return value
            }
            let value = make()
            try database.run("INSERT INTO sync_settings (key, value) VALUES (?, ?)", [.text(key), .text(value)])
            return value
        }
    }

    /// Queues `place`, replacing the book's earlier one.
    public func queueSyncPlace(_ place: QueuedSyncPlace) throws(LibraryError) {
        try syncing { database throws(SQLiteError) in
            try database.run("""
                INSERT INTO sync_queue (document, progress, percentage, queued_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (document) DO UPDATE SET progress = excluded.progress, percentage = excluded.percentage,
                    queued_at = excluded.queued_at
                """, [.text(place.document), .text(place.progress), .real(place.percentage), .real(place.queuedAt)])
        }
    }

    /// The queued places, oldest first, after dropping those queued before `expiry`.
    public func queuedSyncPlaces(droppingBefore expiry: Double) throws(LibraryError) -> [QueuedSyncPlace] {
        try syncing { database throws(SQLiteError) in
            try database.run("DELETE FROM sync_queue WHERE queued_at < ?", [.real(expiry)])
            return try database.query("SELECT document, progress, percentage, queued_at FROM sync_queue ORDER BY queued_at").map { row in
                QueuedSyncPlace(document: row.string(0) ?? "", progress: row.string(1) ?? "", percentage: row.double(2) ?? 0,
                                queuedAt: row.double(3) ?? 0)
            }
        }
    }

    /// Removes the book's queued place if it is still `place` (a newer one queued meanwhile stays).
    public func removeQueuedSyncPlace(_ place: QueuedSyncPlace) throws(LibraryError) {
        try syncing { database throws(SQLiteError) in
            try database.run("DELETE FROM sync_queue WHERE document = ? AND queued_at = ? AND progress = ?",
                             [.text(place.document), .real(place.queuedAt), .text(place.progress)])
        }
    }

    /// Empties the queue (logging out: the places were for that account).
    public func clearSyncQueue() throws(LibraryError) {
        try syncing { database throws(SQLiteError) in try database.run("DELETE FROM sync_queue") }
    }
}
