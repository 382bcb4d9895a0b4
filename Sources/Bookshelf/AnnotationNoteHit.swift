import Annotations
import FoundationEssentials
import LibSQLite
import Shared

/// A note found by the library search (`F` on the bookshelf): the annotation it belongs to and
/// where, the note's words around the match.
public struct AnnotationNoteHit: Sendable, Hashable {
    public var publication: LibraryEntry
    public var annotationID: String
    public var href: String
    /// Where the annotation starts in its resource and in the book, 0…1, when known.
    public var progression: Double?
    public var totalProgression: Double?
    /// The titles of its chapter, outermost first.
    public var headings: [String]
    /// The whole note (Markdown, as typed).
    public var note: String
    /// A few words of the note around the match, the matched words marked (shown safely: one
    /// line, controls made visible).
    public var snippet: [FullTextHit.SnippetPart]

    /// The snippet as plain text.
    public var snippetText: String { snippet.map(\.text).joined() }
}

extension LibraryStore {
    /// The notes that match `query`, with the library search's rules (``FullTextQuery``: every
    /// word, `"phrases"`, `prefix*`, case and accents ignored, nothing typed read as FTS5
    /// syntax), best first, at most `limit`. Deleted annotations are never found. A query with
    /// nothing searchable finds nothing.
    public func annotationNotes(matching query: String, limit: Int = 50) throws(LibraryError) -> [AnnotationNoteHit] {
        guard let parsed = FullTextQuery(query) else { return [] }
        let columns = Self.prefixedColumns
        let rows = try locked { database throws(SQLiteError) in
            try database.query("""
                SELECT \(columns), a.id, a.href, a.progression, a.total_progression, a.headings, a.note,
                    snippet(shelf_annotation_notes, 0, char(2), char(3), char(4), 24)
                FROM shelf_annotation_notes
                JOIN shelf_annotations a ON a.row = shelf_annotation_notes.rowid
                JOIN shelf_publications p ON p.id = a.publication_id
                WHERE shelf_annotation_notes MATCH ? AND a.deleted = 0 ORDER BY rank LIMIT ?
                """, [.text(parsed.matchExpression), .integer(Int64(max(1, limit)))])
        }
        let base = Self.columns.split(separator: ",").count
        return rows.map { row in
            let snippet = Self.hit(entry: Self.entry(row), href: "", start: 0, resourceLength: 1, body: "",
                                   snippet: row.string(base + 6) ?? "").snippet
            return AnnotationNoteHit(publication: Self.entry(row), annotationID: row.string(base) ?? "",
                                     href: row.string(base + 1) ?? "", progression: row.double(base + 2),
                                     totalProgression: row.double(base + 3), headings: Self.decodedList(row.string(base + 4)),
                                     note: row.string(base + 5) ?? "", snippet: snippet)
        }
    }
}
