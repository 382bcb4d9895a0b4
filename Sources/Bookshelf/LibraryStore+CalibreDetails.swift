import FoundationEssentials
import LibSQLite

/// A calibre book's series, tags and cover on the shelf (#34, ``CalibreDetailsSchema``).
extension LibraryStore {
    /// What calibre says of a book beyond its title and authors.
    public struct CalibreDetails: Sendable, Hashable {
        public var series: String?
        public var seriesIndex: Double?
        public var tags: [String]
        public var cover: String?

        public init(series: String? = nil, seriesIndex: Double? = nil, tags: [String] = [], cover: String? = nil) {
            self.series = series
            self.seriesIndex = seriesIndex
            self.tags = tags
            self.cover = cover
        }

        /// The details as an entry holds them.
        public init(of entry: LibraryEntry) {
            self.init(series: entry.series, seriesIndex: entry.seriesIndex, tags: entry.tags, cover: entry.cover)
        }
    }

    /// Replaces the calibre details of publication `id`; returns the stored entry. Names from
    /// calibre's database lose their control characters (tags are stored one a line), and
    /// an empty series or tag is none.
    @discardableResult
    public func setCalibreDetails(id: Int64, _ details: CalibreDetails) throws(LibraryError) -> LibraryEntry? {
        let series = details.series.map(Self.withoutControls).flatMap { $0.isEmpty ? nil : $0 }
        let tags = details.tags.map(Self.withoutControls).filter { !$0.isEmpty }
        return try writing { database throws(SQLiteError) in
            try database.run("UPDATE shelf_publications SET series = ?, series_index = ?, tags = ?, cover = ? WHERE id = ?",
                             [.text(series), series == nil ? .null : details.seriesIndex.map(SQLiteValue.real) ?? .null,
                              .text(tags.joined(separator: "\n")), .text(details.cover), .integer(id)])
            return try database.query("SELECT \(Self.columns) FROM shelf_publications WHERE id = ?", [.integer(id)]).first.map(Self.entry)
        }
    }

    /// The publication whose file is `path` (as stored: calibre's books are stored resolved).
    public func entry(path: String) throws(LibraryError) -> LibraryEntry? {
        try locked { database throws(SQLiteError) in
            try database.query("SELECT \(Self.columns) FROM shelf_publications WHERE path = ? ORDER BY id LIMIT 1", [.text(path)])
                .first.map(Self.entry)
        }
    }

    /// `text` with control characters (line breaks too) made spaces, trimmed.
    static func withoutControls(_ text: String) -> String {
        let spaced = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
        return String(spaced.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
