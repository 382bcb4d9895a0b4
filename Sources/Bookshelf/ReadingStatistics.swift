import FoundationEssentials
import LibSQLite

/// How much a book was read: time, sessions, pages, and the characters read in that time
/// (the reading speed of the person comes from all books together).
public struct BookReadingStatistics: Sendable, Hashable {
    public var seconds: Double = 0
    public var sessions = 0
    public var pages = 0
    public var characters = 0

    public init(seconds: Double = 0, sessions: Int = 0, pages: Int = 0, characters: Int = 0) {
        self.seconds = seconds
        self.sessions = sessions
        self.pages = pages
        self.characters = characters
    }

    /// Pages read per session, rounded.
    public var pagesPerSession: Int { sessions == 0 ? 0 : Int((Double(pages) / Double(sessions)).rounded()) }
}

/// Reading statistics per book, by content identity, in `shelf_reading_statistics` (created
/// by the library's named step `library/5-reading-statistics`).
public struct ReadingStatisticsStore: Sendable {
    public let store: LibraryStore

    public init(store: LibraryStore) {
        self.store = store
    }

    /// Created by the library's named step (``LibrarySchema/named``).
    static let table = """
        CREATE TABLE IF NOT EXISTS shelf_reading_statistics (
            identity TEXT PRIMARY KEY NOT NULL,
            seconds REAL NOT NULL DEFAULT 0,
            sessions INTEGER NOT NULL DEFAULT 0,
            pages INTEGER NOT NULL DEFAULT 0,
            characters INTEGER NOT NULL DEFAULT 0
        )
        """

    @discardableResult
    private func locked<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(LibraryError) -> T {
        try store.locked(body)
    }

    /// Adds one reading session to the book's statistics.
    public func addSession(identity: String, seconds: Double, pages: Int, characters: Int) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            try database.run("""
                INSERT INTO shelf_reading_statistics (identity, seconds, sessions, pages, characters) VALUES (?, ?, 1, ?, ?)
                ON CONFLICT (identity) DO UPDATE SET seconds = seconds + excluded.seconds, sessions = sessions + 1,
                    pages = pages + excluded.pages, characters = characters + excluded.characters
                """, [.text(identity), .real(seconds), .integer(pages), .integer(characters)])
        }
    }

    /// Every book's statistics, by content identity.
    public func all() throws(LibraryError) -> [String: BookReadingStatistics] {
        try locked { database throws(SQLiteError) in
            var result: [String: BookReadingStatistics] = [:]
            for row in try database.query("SELECT identity, seconds, sessions, pages, characters FROM shelf_reading_statistics") {
                guard let identity = row.string(0) else { continue }
                result[identity] = BookReadingStatistics(seconds: row.double(1) ?? 0, sessions: row.int(2) ?? 0,
                                                         pages: row.int(3) ?? 0, characters: row.int(4) ?? 0)
            }
            return result
        }
    }
}
