import FoundationEssentials
import LibSQLite
import Shared

/// A passage of a publication's text, as the indexer hands it to the library.
public struct TextChunk: Sendable, Hashable {
    /// The resource it comes from.
    public var href: String
    /// The position of its first character in the resource's text (a ``TextLayout`` offset).
    public var start: Int
    /// The length of the resource's whole text, to turn positions into progressions.
    public var resourceLength: Int
    public var text: String

    public init(href: String, start: Int, resourceLength: Int, text: String) {
        self.href = href
        self.start = start
        self.resourceLength = resourceLength
        self.text = text
    }
}

/// A passage found by a library search.
public struct FullTextHit: Sendable, Hashable {
    public var publication: LibraryEntry
    public var href: String
    /// A few words around the match, the matched words marked.
    public var snippet: [SnippetPart]
    /// Where the match starts in the resource, 0…1.
    public var progression: Double
    /// The first matched words, as they are in the text.
    public var highlight: String
    /// The text just before them (for a locator that finds the exact occurrence).
    public var before: String

    /// A piece of a snippet: matched words or the text around them.
    public struct SnippetPart: Sendable, Hashable {
        public var text: String
        public var isMatch: Bool
    }

    /// The snippet as plain text.
    public var snippetText: String { snippet.map(\.text).joined() }

    /// A locator of the match: its resource, progression and text, as the reader resolves it.
    public var locator: Locator {
        Locator(href: href, mediaType: nil,
                locations: Locator.Locations(progression: progression),
                text: Locator.Text(before: before.isEmpty ? nil : before, highlight: highlight))
    }
}

/// How much of the library is in the full-text index.
public struct FullTextCoverage: Sendable, Hashable {
    /// Unprotected publications whose text is indexed.
    public var indexed: Int
    /// Unprotected publications still to index (protected ones are never indexed).
    public var pending: Int

    public init(indexed: Int, pending: Int) {
        self.indexed = indexed
        self.pending = pending
    }
}

extension LibraryStore {
    /// The publication columns, of the table aliased `p`.
    static var prefixedColumns: String { columns.split(separator: ", ").map { "p.\($0)" }.joined(separator: ", ") }

    // MARK: - Indexing

    /// The unprotected publications whose text is not (completely) indexed, oldest first.
    public func fullTextPending() throws(LibraryError) -> [LibraryEntry] {
        let columns = Self.prefixedColumns
        return try locked { database throws(SQLiteError) in
            try database.query("""
                SELECT \(columns) FROM shelf_publications p
                LEFT JOIN shelf_fulltext_books b ON b.publication_id = p.id
                WHERE p.protection = 'none' AND COALESCE(b.complete, 0) = 0 ORDER BY p.added_at, p.id
                """).map(Self.entry)
        }
    }

    /// The reading-order item indexing of a publication resumes at.
    public func fullTextNextItem(publicationID: Int64) throws(LibraryError) -> Int {
        try locked { database throws(SQLiteError) in
            try database.query("SELECT next_item FROM shelf_fulltext_books WHERE publication_id = ?", [.integer(publicationID)])
                .first?.int(0) ?? 0
        }
    }

    /// Stores the chunks of reading-order item `item` and that indexing resumes after it, in
    /// one transaction: an interrupted indexing leaves whole items only. Nothing is stored
    /// for a publication that was removed meanwhile, or that is protected.
    public func addFullText(publicationID: Int64, item: Int, chunks: [TextChunk]) throws(LibraryError) {
        try writing { database throws(SQLiteError) in
            let rows = try database.query("SELECT protection FROM shelf_publications WHERE id = ?", [.integer(publicationID)])
            guard let row = rows.first, row.string(0) == ProtectionMark.none.rawValue else { return }
            // A resumed item may have been stored by a process that stopped before recording it.
            let next = try database.query("SELECT next_item FROM shelf_fulltext_books WHERE publication_id = ?",
                                          [.integer(publicationID)]).first?.int(0) ?? 0
            guard item >= next else { return }
            for chunk in chunks {
                let body = ScriptSegmentation.segmented(chunk.text)
                let folded = TypographicFolding.folded(body)
                try database.run("""
                    INSERT INTO shelf_fulltext_chunks (publication_id, href, start, resource_length, body, folded_body)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """, [.integer(publicationID), .text(chunk.href), .integer(Int64(chunk.start)),
                          .integer(Int64(chunk.resourceLength)), .text(body), folded == body ? .null : .text(folded)])
            }
            try database.run("""
                INSERT INTO shelf_fulltext_books (publication_id, next_item) VALUES (?, ?)
                ON CONFLICT (publication_id) DO UPDATE SET next_item = excluded.next_item
                """, [.integer(publicationID), .integer(Int64(item + 1))])
        }
    }

    /// Records that a publication's text is completely indexed.
    public func completeFullText(publicationID: Int64) throws(LibraryError) {
        try locked { database throws(SQLiteError) in
            guard try !database.query("SELECT 1 FROM shelf_publications WHERE id = ?", [.integer(publicationID)]).isEmpty else { return }
            try database.run("""
                INSERT INTO shelf_fulltext_books (publication_id, complete) VALUES (?, 1)
                ON CONFLICT (publication_id) DO UPDATE SET complete = 1
                """, [.integer(publicationID)])
        }
    }

    /// How many unprotected publications are indexed and how many are not yet.
    public func fullTextCoverage() throws(LibraryError) -> FullTextCoverage {
        try locked { database throws(SQLiteError) in
            let row = try database.query("""
                SELECT SUM(COALESCE(b.complete, 0)), SUM(1 - COALESCE(b.complete, 0)) FROM shelf_publications p
                LEFT JOIN shelf_fulltext_books b ON b.publication_id = p.id WHERE p.protection = 'none'
                """).first
            return FullTextCoverage(indexed: row?.int(0) ?? 0, pending: row?.int(1) ?? 0)
        }
    }

    /// The number of indexed chunks of a publication (tests, diagnostics).
    public func fullTextChunkCount(publicationID: Int64) throws(LibraryError) -> Int {
        try locked { database throws(SQLiteError) in
            try database.query("SELECT COUNT(*) FROM shelf_fulltext_chunks WHERE publication_id = ?", [.integer(publicationID)])
                .first?.int(0) ?? 0
        }
    }

    // MARK: - Searching

    /// Above this many matching passages, ranking them all would cost more than a query may
    /// (BM25 scores every match): the query says too little to rank, and passages come in
    /// library order instead.
    static let rankedMatchLimit = 10_000

    /// The passages that best match `query` (BM25 ranking), at most `limit`.
    public func searchFullText(_ query: FullTextQuery, limit: Int = 20) throws(LibraryError) -> [FullTextHit] {
        let columns = Self.prefixedColumns
        let expression = SQLiteValue.text(query.matchExpression)
        let rows = try locked { database throws(SQLiteError) in
            // Counting stops at the limit: cheap for rare words, bounded for common ones.
            let matches = try database.query("SELECT COUNT(*) FROM (SELECT rowid FROM shelf_fulltext WHERE shelf_fulltext MATCH ? LIMIT ?)",
                                             [expression, .integer(Int64(Self.rankedMatchLimit + 1))]).first?.int(0) ?? 0
            guard matches > 0 else { return [SQLiteRow]() }
            let order = matches > Self.rankedMatchLimit ? "" : "ORDER BY rank"
            return try database.query("""
                SELECT \(columns), c.href, c.start, c.resource_length, c.body,
                    snippet(shelf_fulltext, 0, char(2), char(3), char(4), 24)
                FROM shelf_fulltext
                JOIN shelf_fulltext_chunks c ON c.id = shelf_fulltext.rowid
                JOIN shelf_publications p ON p.id = c.publication_id
                WHERE shelf_fulltext MATCH ? \(order) LIMIT ?
                """, [expression, .integer(Int64(max(1, limit)))])
        }
        let entryColumns = Self.columns.split(separator: ",").count
        return rows.map { row in
            let entry = Self.entry(row)
            let href = row.string(entryColumns) ?? ""
            let start = row.int(entryColumns + 1) ?? 0
            let length = max(1, row.int(entryColumns + 2) ?? 1)
            let body = row.string(entryColumns + 3) ?? ""
            let snippet = row.string(entryColumns + 4) ?? ""
            return Self.hit(entry: entry, href: href, start: start, resourceLength: length, body: body, snippet: snippet)
        }
    }

    /// A hit from FTS5's snippet (matches between U+0002 and U+0003, U+0004 where text was
    /// left out) and the chunk it comes from.
    static func hit(entry: LibraryEntry, href: String, start: Int, resourceLength: Int, body: String, snippet: String) -> FullTextHit {
        var parts: [FullTextHit.SnippetPart] = []
        var current = ""
        var inMatch = false
        var before: String?
        var highlight: String?
        for character in snippet {
            switch character {
            case "\u{2}", "\u{3}":
                if !current.isEmpty { parts.append(.init(text: current, isMatch: inMatch)) }
                if character == "\u{3}", highlight == nil { highlight = current }
                if character == "\u{2}", before == nil { before = parts.filter { !$0.isMatch }.map(\.text).joined() }
                current = ""
                inMatch = character == "\u{2}"
            case "\u{4}":
                current.append("…")
            default:
                current.append(character)
            }
        }
        if !current.isEmpty { parts.append(.init(text: current, isMatch: inMatch)) }
        // Where the match is in the chunk: the snippet's text up to the match, found in the body.
        let lead = (before ?? "").replacing("…", with: "")
        let matched = highlight ?? ""
        var offset = 0
        if let found = body.firstRange(of: lead + matched) {
            offset = ScriptSegmentation.unsegmented(String(body[..<found.lowerBound])).count + ScriptSegmentation.unsegmented(lead).count
        }
        let displayed = parts.map { FullTextHit.SnippetPart(text: TerminalText.singleLine(ScriptSegmentation.unsegmented($0.text)),
                                                                isMatch: $0.isMatch) }
        let unsegmentedLead = ScriptSegmentation.unsegmented(lead)
        return FullTextHit(publication: entry, href: href, snippet: displayed,
                           progression: min(1, Double(start + offset) / Double(resourceLength)),
                           highlight: ScriptSegmentation.unsegmented(matched),
                           before: String(unsegmentedLead.suffix(32)))
    }
}
