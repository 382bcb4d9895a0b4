import FoundationEssentials
import LibSQLite
import Shared

/// The publications on the shelf: listing, adding, updating and removing them.
extension LibraryStore {
    /// The order of the bookshelf.
    public enum Sort: String, Sendable, CaseIterable {
        /// `series`: a series' books together in their order (calibre's series and number), then
        /// the books in no series by title.
        case title, author, recent, series

        /// The next order (the sort key cycles).
        public var next: Sort {
            let all = Sort.allCases
            return all[(all.firstIndex(of: self)! + 1) % all.count]
        }
    }

    /// The columns ``entry(_:)`` reads, in its order.
    static let columns = "id, identity, path, title, author, format, protection, license_id, acquired, added_at, opened_at, progress, locator, sort_author, series, series_index, tags, cover"

    /// Every publication, in `sort` order.
    public func entries(sort: Sort = .title) throws(LibraryError) -> [LibraryEntry] {
        let order = switch sort {
        case .title: "sort_title, sort_author"
        case .author: "sort_author, sort_title"
        case .recent: "opened_at IS NULL, opened_at DESC, added_at DESC"
        case .series: "series IS NULL, series COLLATE NOCASE, series_index, sort_title, sort_author"
        }
        return try locked { database throws(SQLiteError) in
            try database.query("SELECT \(Self.columns) FROM shelf_publications ORDER BY \(order)").map(Self.entry)
        }
    }

    /// The number of publications.
    public func count() throws(LibraryError) -> Int {
        try locked { database throws(SQLiteError) in try database.query("SELECT COUNT(*) FROM shelf_publications").first?.int(0) ?? 0 }
    }

    /// The publication with the row id `id`.
    public func entry(id: Int64) throws(LibraryError) -> LibraryEntry? {
        try locked { database throws(SQLiteError) in
            try database.query("SELECT \(Self.columns) FROM shelf_publications WHERE id = ?", [.integer(id)]).first.map(Self.entry)
        }
    }

    /// The publication with the content identity `identity` (see ``ContentIdentity``).
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


    /// Records that the publication was downloaded into the library folder (deleting it from
    /// the library then deletes its file).
    public func setAcquired(id: Int64) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            try database.run("UPDATE shelf_publications SET acquired = 1 WHERE id = ?", [.integer(id)])
        }
    }


    /// Adds many entries in one transaction (tests and benchmarks fill large libraries).
    public func addAll(_ entries: [LibraryEntry]) throws(LibraryError) {
        try writing { database throws(SQLiteError) in
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
        }
    }

    /// A publication of a row selected with ``columns``.
    static func entry(_ row: SQLiteRow) -> LibraryEntry {
        LibraryEntry(id: Int64(row.int(0) ?? 0), identity: row.string(1) ?? "", path: row.string(2) ?? "",
                     title: row.string(3) ?? "", author: row.string(4) ?? "", authorSortKey: row.string(13),
                     format: row.string(5) ?? "",
                     protection: ProtectionMark(rawValue: row.string(6) ?? "") ?? .none, licenseID: row.string(7),
                     acquired: row.int(8) == 1, addedAt: Date(timeIntervalSince1970: row.double(9) ?? 0),
                     openedAt: row.double(10).map(Date.init(timeIntervalSince1970:)), progress: row.double(11),
                     locator: row.string(12), series: row.string(14), seriesIndex: row.double(15),
                     tags: (row.string(16) ?? "").split(separator: "\n").map(String.init), cover: row.string(17))
    }

}
