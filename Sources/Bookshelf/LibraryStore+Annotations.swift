import Annotations
import FoundationEssentials
import LibSQLite
import Shared

/// Highlights and notes, per publication (they go with it when it is removed); the tables are
/// in ``AnnotationSchema``.
extension LibraryStore {
    static let annotationColumns = """
        id, href, media_type, progression, total_progression, range_start, range_end, quote, quote_prefix, quote_suffix,
        sealed_quote, sealing, css_selector, cfi, page, headings, color, style, note, tags, created_at, modified_at, deleted,
        css_text_start, css_text_end, xpointer_start, xpointer_end, quote_withheld
        """

    /// The annotations of a publication in reading order (by progression in the book, then in
    /// the resource, then oldest first), tombstones only when `includingDeleted`.
    ///
    /// A protected book's quotes are opened with `sealing`; one that cannot be (no sealing, or
    /// another key) is returned with its quote nil and ``AnnotationTarget/quoteIsSealed`` set:
    /// never dropped.
    public func annotations(publicationID: Int64, includingDeleted: Bool = false,
                            sealing: QuoteSealing?) throws(LibraryError) -> [Annotation] {
        let rows = try locked { database throws(SQLiteError) in
            try database.query("""
                SELECT \(Self.annotationColumns) FROM shelf_annotations
                WHERE publication_id = ? \(includingDeleted ? "" : "AND deleted = 0")
                ORDER BY total_progression IS NULL, total_progression, href, progression, range_start, created_at, id
                """, [.integer(publicationID)])
        }
        return rows.map { Self.annotation($0, sealing: sealing) }
    }

    /// Inserts `annotation`, or replaces the one of the publication with its id. Nothing else
    /// is changed (its `modified` is the caller's).
    ///
    /// The quote of a protected publication is stored sealed with `sealing`, never in clear;
    /// without a sealing it is refused (``LibraryError``). An annotation read back with its
    /// quote sealed (``AnnotationTarget/quoteIsSealed``, quote nil) keeps the sealed quote
    /// stored.
    public func saveAnnotation(_ annotation: Annotation, publicationID: Int64, sealing: QuoteSealing?) throws(LibraryError) {
        try saveAnnotations([annotation], publicationID: publicationID, sealing: sealing)
    }

    /// Saves `annotations` as ``saveAnnotation(_:publicationID:sealing:)`` does, all in one
    /// transaction (an import of thousands): all are saved, or none.
    public func saveAnnotations(_ annotations: [Annotation], publicationID: Int64, sealing: QuoteSealing?) throws(LibraryError) {
        let protection = try locked { database throws(SQLiteError) in
            try database.query("SELECT protection FROM shelf_publications WHERE id = ?", [.integer(publicationID)]).first?.string(0)
        }
        guard let protection else { throw LibraryError(message: "the publication is no longer in the library") }
        let isProtected = protection != ProtectionMark.none.rawValue
        var rows: [(annotation: Annotation, values: [SQLiteValue], keepsSealedQuote: Bool)] = []
        for annotation in annotations {
            let values = try Self.values(annotation, publicationID: publicationID, isProtected: isProtected, sealing: sealing)
            rows.append((annotation, values, annotation.target.quote == nil && annotation.target.quoteIsSealed))
        }
        try writing { database throws(SQLiteError) in
            for row in rows {
                // Updating in place keeps the row (and so the note index's rowid); a sealed
                // quote that could not be opened is left as it is.
                let sealedUpdate = row.keepsSealedQuote ? "" : "sealed_quote = excluded.sealed_quote, sealing = excluded.sealing,"
                try database.run("""
                    INSERT INTO shelf_annotations (publication_id, \(Self.annotationColumns))
                    VALUES (\(Array(repeating: "?", count: row.values.count).joined(separator: ", ")))
                    ON CONFLICT (publication_id, id) DO UPDATE SET
                        href = excluded.href, media_type = excluded.media_type, progression = excluded.progression,
                        total_progression = excluded.total_progression, range_start = excluded.range_start,
                        range_end = excluded.range_end, quote = excluded.quote, quote_prefix = excluded.quote_prefix,
                        quote_suffix = excluded.quote_suffix, \(sealedUpdate) css_selector = excluded.css_selector,
                        cfi = excluded.cfi, page = excluded.page, headings = excluded.headings, color = excluded.color,
                        style = excluded.style, note = excluded.note, tags = excluded.tags, created_at = excluded.created_at,
                        modified_at = excluded.modified_at, deleted = excluded.deleted,
                        css_text_start = excluded.css_text_start, css_text_end = excluded.css_text_end,
                        xpointer_start = excluded.xpointer_start, xpointer_end = excluded.xpointer_end,
                        quote_withheld = excluded.quote_withheld
                    """, row.values)
                let stored = try database.query("SELECT row FROM shelf_annotations WHERE publication_id = ? AND id = ?",
                                                [.integer(publicationID), .text(row.annotation.id)]).first?.int(0) ?? 0
                try Self.indexNote(row.annotation.deleted ? nil : row.annotation.note, row: Int64(stored), database)
            }
        }
    }

    /// The column values of `annotation`, its quote sealed when the publication is protected.
    static func values(_ annotation: Annotation, publicationID: Int64, isProtected: Bool,
                       sealing: QuoteSealing?) throws(LibraryError) -> [SQLiteValue] {
        let target = annotation.target
        var clear: TextQuote?
        var sealed: (text: String, kind: String)?
        if let quote = target.quote {
            if isProtected {
                guard let sealing else {
                    throw LibraryError(message: "the quote of a protected publication cannot be kept without its key")
                }
                guard let text = sealing.seal(encodedQuote(quote)) else {
                    throw LibraryError(message: "the quote could not be sealed (the key file cannot be written)")
                }
                sealed = (text, sealing.kind.rawValue)
            } else {
                clear = quote
            }
        }
        return [
            .integer(publicationID), .text(annotation.id), .text(target.href), value(target.type),
            value(target.progression), value(target.totalProgression),
            value(target.textRange.map { Int64($0.lowerBound) }), value(target.textRange.map { Int64($0.upperBound) }),
            value(clear?.exact), value(clear?.prefix), value(clear?.suffix), value(sealed?.text), value(sealed?.kind),
            value(target.cssSelector), value(target.cfi), value(target.page.map(Int64.init)),
            .text(encodedList(target.headings)), .text(annotation.color.rawValue), .text(annotation.style.rawValue),
            value(annotation.note), .text(encodedList(annotation.tags)),
            .real(annotation.created.timeIntervalSince1970), .real(annotation.modified.timeIntervalSince1970),
            .integer(annotation.deleted ? 1 : 0),
            value(target.cssTextRange.map { Int64($0.lowerBound) }), value(target.cssTextRange.map { Int64($0.upperBound) }),
            value(target.xpointerStart), value(target.xpointerEnd), .integer(target.quoteWithheld ? 1 : 0),
        ]
    }

    /// Deletes an annotation, keeping its tombstone (deleted, modified now, its quote and note
    /// dropped) so that a sync deletes it elsewhere. Nothing happens when there is none.
    public func deleteAnnotation(id: String, publicationID: Int64) throws(LibraryError) {
        try writing { database throws(SQLiteError) in
            try database.run("""
                UPDATE shelf_annotations SET deleted = 1, modified_at = ?, quote = NULL, quote_prefix = NULL,
                    quote_suffix = NULL, sealed_quote = NULL, sealing = NULL, note = NULL
                WHERE publication_id = ? AND id = ?
                """, [.real(Date().timeIntervalSince1970), .integer(publicationID), .text(id)])
            if let row = try database.query("SELECT row FROM shelf_annotations WHERE publication_id = ? AND id = ?",
                                            [.integer(publicationID), .text(id)]).first?.int(0) {
                try Self.indexNote(nil, row: Int64(row), database)
            }
        }
    }

    // MARK: - Rows

    /// Replaces the note index's entry of annotation `row` with `note` (none when nil).
    static func indexNote(_ note: String?, row: Int64, _ database: SQLiteDatabase) throws(SQLiteError) {
        try database.run("DELETE FROM shelf_annotation_notes WHERE rowid = ?", [.integer(row)])
        guard let note, !note.isEmpty else { return }
        let indexed = TypographicFolding.folded(ScriptSegmentation.segmented(note))
        try database.run("INSERT INTO shelf_annotation_notes (rowid, body) VALUES (?, ?)", [.integer(row), .text(indexed)])
    }

    static func annotation(_ row: SQLiteRow, sealing: QuoteSealing?) -> Annotation {
        var quote: TextQuote?
        var quoteIsSealed = false
        if let exact = row.string(7) {
            quote = TextQuote(exact: exact, prefix: row.string(8) ?? "", suffix: row.string(9) ?? "")
        } else if let sealed = row.string(10) {
            if let sealing, sealing.kind.rawValue == row.string(11), let opened = sealing.open(sealed) {
                quote = decodedQuote(opened)
            }
            quoteIsSealed = quote == nil
        }
        let range = Self.range(row.int(5), row.int(6))
        let target = AnnotationTarget(href: row.string(1) ?? "", type: row.string(2), progression: row.double(3),
                                      totalProgression: row.double(4), textRange: range, quote: quote,
                                      cssSelector: row.string(12), cfi: row.string(13), page: row.int(14),
                                      headings: decodedList(row.string(15)), quoteIsSealed: quoteIsSealed,
                                      cssTextRange: Self.range(row.int(23), row.int(24)), quoteWithheld: (row.int(27) ?? 0) != 0,
                                      xpointerStart: row.string(25), xpointerEnd: row.string(26))
        return Annotation(id: row.string(0) ?? "", target: target,
                          color: HighlightColor(rawValue: row.string(16) ?? "") ?? .yellow,
                          style: HighlightStyle(rawValue: row.string(17) ?? "") ?? .solid,
                          note: row.string(18), tags: decodedList(row.string(19)),
                          created: Date(timeIntervalSince1970: row.double(20) ?? 0),
                          modified: Date(timeIntervalSince1970: row.double(21) ?? 0), deleted: (row.int(22) ?? 0) != 0)
    }

    static func range(_ start: Int?, _ end: Int?) -> Range<Int>? {
        guard let start, let end, start <= end else { return nil }
        return start..<end
    }

    static func value(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
    static func value(_ number: Double?) -> SQLiteValue { number.map(SQLiteValue.real) ?? .null }
    static func value(_ number: Int64?) -> SQLiteValue { number.map(SQLiteValue.integer) ?? .null }

    static func encodedList(_ list: [String]) -> String {
        JSONWriter().string(.array(list.map(JSONValue.string)))
    }

    static func decodedList(_ text: String?) -> [String] {
        guard let text, case .array(let items)? = try? JSONParser.parse(text) else { return [] }
        return items.compactMap(\.string)
    }

    /// A quote as the one text that is sealed.
    static func encodedQuote(_ quote: TextQuote) -> String {
        JSONWriter().string(.object(JSONObject(["exact": .string(quote.exact), "prefix": .string(quote.prefix),
                                                "suffix": .string(quote.suffix)])))
    }

    static func decodedQuote(_ text: String) -> TextQuote? {
        guard case .object(let object)? = try? JSONParser.parse(text), let exact = object["exact"]?.string else { return nil }
        return TextQuote(exact: exact, prefix: object["prefix"]?.string ?? "", suffix: object["suffix"]?.string ?? "")
    }
}
