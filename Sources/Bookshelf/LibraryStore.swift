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
/// One connection, serialised by a lock: call from any thread, but not from the main actor
/// when it can be avoided (every call is disk I/O).
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

    // MARK: - Publications

    /// The order of the bookshelf.
    public enum Sort: String, Sendable, CaseIterable {
        case title, author, recent

        /// The next order (the sort key cycles).
        public var next: Sort {
            let all = Sort.allCases
            return all[(all.firstIndex(of: self)! + 1) % all.count]
        }
    }

    static let columns = "id, identity, path, title, author, format, protection, license_id, acquired, added_at, opened_at, progress, locator, sort_author"

    /// Every publication, in `sort` order.
    public func entries(sort: Sort = .title) throws(LibraryError) -> [LibraryEntry] {
        let order = switch sort {
        case .title: "sort_title, sort_author"
        case .author: "sort_author, sort_title"
        case .recent: "opened_at IS NULL, opened_at DESC, added_at DESC"
        }
        return try locked { database throws(SQLiteError) in
            try database.query("SELECT \(Self.columns) FROM shelf_publications ORDER BY \(order)").map(Self.entry)
        }
    }

    /// The number of publications.
    public func count() throws(LibraryError) -> Int {
        try locked { database throws(SQLiteError) in try database.query("SELECT COUNT(*) FROM shelf_publications").first?.int(0) ?? 0 }
    }

    public func entry(id: Int64) throws(LibraryError) -> LibraryEntry? {
        try locked { database throws(SQLiteError) in
            try database.query("SELECT \(Self.columns) FROM shelf_publications WHERE id = ?", [.integer(id)]).first.map(Self.entry)
        }
    }

    public func entry(identity: String) throws(LibraryError) -> LibraryEntry? {
        try locked { database throws(SQLiteError) in
            try database.query("SELECT \(Self.columns) FROM shelf_publications WHERE identity = ?", [.text(identity)]).first.map(Self.entry)
        }
    }

    /// Adds a publication, or updates the one with the same content identity (its path,
    /// metadata and protection; never its reading position). Returns the stored entry.
    @discardableResult
    public func add(_ entry: LibraryEntry) throws(LibraryError) -> LibraryEntry {
        try locked { database throws(SQLiteError) in
            try database.run("""
                INSERT INTO shelf_publications (identity, path, title, sort_title, author, sort_author, format, protection,
                    license_id, acquired, added_at, opened_at, progress, locator)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (identity) DO UPDATE SET path = excluded.path, title = excluded.title,
                    sort_title = excluded.sort_title, author = excluded.author, sort_author = excluded.sort_author,
                    format = excluded.format, protection = excluded.protection,
                    license_id = COALESCE(excluded.license_id, license_id)
                """, [.text(entry.identity), .text(entry.path), .text(entry.title), .text(Self.sortKey(entry.title)),
                      .text(entry.author), .text(entry.authorSortKey), .text(entry.format), .text(entry.protection.rawValue),
                      .text(entry.licenseID), .integer(entry.acquired ? 1 : 0), .real(entry.addedAt.timeIntervalSince1970),
                      entry.openedAt.map { .real($0.timeIntervalSince1970) } ?? .null, entry.progress.map(SQLiteValue.real) ?? .null,
                      .text(entry.locator)])
            return try database.query("SELECT \(Self.columns) FROM shelf_publications WHERE identity = ?", [.text(entry.identity)])
                .first.map(Self.entry) ?? entry
        }
    }

    /// Removes a publication (its bookmarks go with it); returns what was removed.
    @discardableResult
    public func delete(id: Int64) throws(LibraryError) -> LibraryEntry? {
        try locked { database throws(SQLiteError) in
            let entry = try database.query("SELECT \(Self.columns) FROM shelf_publications WHERE id = ?", [.integer(id)]).first.map(Self.entry)
            try database.run("DELETE FROM shelf_publications WHERE id = ?", [.integer(id)])
            return entry
        }
    }

    /// Whether deleting `entry` deletes its file: only files acquired into the library folder.
    public static func ownsFile(of entry: LibraryEntry) -> Bool {
        entry.acquired && entry.path.hasPrefix(publicationsFolder + "/")
    }

    /// Records the reading position and progress, and that the publication was opened now.
    public func savePosition(id: Int64, locator: String, progress: Double?) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            try database.run("UPDATE shelf_publications SET locator = ?, progress = COALESCE(?, progress), opened_at = ? WHERE id = ?",
                             [.text(locator), progress.map(SQLiteValue.real) ?? .null, .real(Date().timeIntervalSince1970), .integer(id)])
        }
    }

    /// Records that the publication was downloaded into the library folder (deleting it from
    /// the library then deletes its file).
    public func setAcquired(id: Int64) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            try database.run("UPDATE shelf_publications SET acquired = 1 WHERE id = ?", [.integer(id)])
        }
    }

    /// Records that the publication was opened now.
    public func markOpened(id: Int64) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            try database.run("UPDATE shelf_publications SET opened_at = ? WHERE id = ?", [.real(Date().timeIntervalSince1970), .integer(id)])
        }
    }

    /// Adds many entries in one transaction (tests and benchmarks fill large libraries).
    public func addAll(_ entries: [LibraryEntry]) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            try database.execute("BEGIN IMMEDIATE")
            do throws(SQLiteError) {
                for entry in entries {
                    try database.run("""
                        INSERT OR IGNORE INTO shelf_publications (identity, path, title, sort_title, author, sort_author, format,
                            protection, license_id, acquired, added_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, [.text(entry.identity), .text(entry.path), .text(entry.title), .text(Self.sortKey(entry.title)),
                              .text(entry.author), .text(entry.authorSortKey), .text(entry.format),
                              .text(entry.protection.rawValue), .text(entry.licenseID), .integer(entry.acquired ? 1 : 0),
                              .real(entry.addedAt.timeIntervalSince1970)])
                }
                try database.execute("COMMIT")
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        }
    }

    // MARK: - Bookmarks

    public func bookmarks(publicationID: Int64) throws(LibraryError) -> [Bookmark] {
        try locked { database throws(SQLiteError) in
            try database.query("SELECT id, locator, label, progress, created_at FROM shelf_bookmarks WHERE publication_id = ? ORDER BY progress, created_at",
                               [.integer(publicationID)]).map { row in
                Bookmark(id: Int64(row.int(0) ?? 0), locator: row.string(1) ?? "", label: row.string(2) ?? "",
                         progress: row.double(3), createdAt: Date(timeIntervalSince1970: row.double(4) ?? 0))
            }
        }
    }

    @discardableResult
    public func addBookmark(_ bookmark: Bookmark, publicationID: Int64) throws(LibraryError) -> Int64 {
        try locked { database throws(SQLiteError) in
            try database.run("INSERT INTO shelf_bookmarks (publication_id, locator, label, progress, created_at) VALUES (?, ?, ?, ?, ?)",
                             [.integer(publicationID), .text(bookmark.locator), .text(bookmark.label),
                              bookmark.progress.map(SQLiteValue.real) ?? .null, .real(bookmark.createdAt.timeIntervalSince1970)])
            return database.lastInsertRowID
        }
    }

    public func deleteBookmark(id: Int64) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            try database.run("DELETE FROM shelf_bookmarks WHERE id = ?", [.integer(id)])
        }
    }

    // MARK: - Book-wide figures

    /// The text length of each reading-order item, cached per content identity (computed
    /// once in the background, for book percentages).
    public func textLengths(identity: String) throws(LibraryError) -> [Int]? {
        try locked { database throws(SQLiteError) in
            guard let text = try database.query("SELECT lengths FROM shelf_text_lengths WHERE identity = ?", [.text(identity)]).first?.string(0)
            else { return nil }
            return text.split(separator: ",").compactMap { Int($0) }
        }
    }

    public func setTextLengths(_ lengths: [Int], identity: String) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            try database.run("INSERT OR REPLACE INTO shelf_text_lengths (identity, lengths) VALUES (?, ?)",
                             [.text(identity), .text(lengths.map(String.init).joined(separator: ","))])
        }
    }

    // MARK: - Rows

    static func entry(_ row: SQLiteRow) -> LibraryEntry {
        LibraryEntry(id: Int64(row.int(0) ?? 0), identity: row.string(1) ?? "", path: row.string(2) ?? "",
                     title: row.string(3) ?? "", author: row.string(4) ?? "", authorSortKey: row.string(13),
                     format: row.string(5) ?? "",
                     protection: ProtectionMark(rawValue: row.string(6) ?? "") ?? .none, licenseID: row.string(7),
                     acquired: row.int(8) == 1, addedAt: Date(timeIntervalSince1970: row.double(9) ?? 0),
                     openedAt: row.double(10).map(Date.init(timeIntervalSince1970:)), progress: row.double(11),
                     locator: row.string(12))
    }

    /// The key an author sorts by when the publication gives none: family name first, as a
    /// library shelves ("Herman Melville" sorts as "melville herman"); a name already written
    /// family name first ("Natsume, Sōseki") and a single word stay as they are. Of several
    /// authors, the first decides.
    public static func authorSortKey(_ author: String) -> String {
        let first = author.split(separator: ";").first.map(String.init) ?? author
        let name = first.trimmed
        // "Family, Given" is already in order; so are names with no space.
        if name.contains(",") || !name.contains(" ") { return name.lowercased() }
        var words = name.split(separator: " ").map(String.init)
        // Particles and suffixes stay with the family name: "Ursula K. Le Guin", "Martin Luther King Jr.".
        let suffixes: Set<String> = ["jr", "jr.", "sr", "sr.", "ii", "iii", "iv"]
        var suffix: [String] = []
        while words.count > 2, let last = words.last, suffixes.contains(last.lowercased()) { suffix.insert(words.removeLast(), at: 0) }
        var family = [words.removeLast()]
        let particles: Set<String> = ["le", "la", "de", "du", "des", "van", "von", "der", "den", "da", "di", "del", "ten", "ter"]
        while words.count > 1, let last = words.last, particles.contains(last.lowercased()) { family.insert(words.removeLast(), at: 0) }
        return (family + words + suffix).joined(separator: " ").lowercased()
    }

    /// The key titles and authors sort by: lowercased, without a leading article.
    public static func sortKey(_ text: String) -> String {
        var key = text.lowercased()
        for article in ["the ", "a ", "an "] where key.hasPrefix(article) {
            key.removeFirst(article.count)
            break
        }
        return key
    }
}

/// Why the library database failed.
public struct LibraryError: Error, Sendable, UserMessageConvertible {
    public let message: String
    public var userMessage: String { "library database: \(message)" }
}
