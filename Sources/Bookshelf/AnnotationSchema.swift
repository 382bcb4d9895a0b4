/// The tables of highlights and notes (issue #31), made by the library's named step
/// `library/7-annotations` (``LibrarySchema/named``).
///
/// `shelf_annotations` holds one row per annotation and publication, keyed by the annotation's
/// stable id (a UUID string), every anchor of its target in a column of its own. A protected
/// book's quote is never in `quote`/`quote_prefix`/`quote_suffix`: it is in `sealed_quote`
/// (``QuoteSealing``), with the kind of key that sealed it. Deleting keeps the row as a
/// tombstone (`deleted`), its quote and note dropped.
///
/// `shelf_annotation_notes` is the FTS5 index of the notes (the person's own text, so indexed
/// in clear, for every book), rowid = the annotation's `row` (an alias of its rowid, which a
/// `VACUUM` keeps), holding the note as the library
/// search indexes text (segmented and folded, ``FullTextQuery``). The store keeps it in step
/// in the transaction that writes the annotation; a trigger empties it when a publication's
/// annotations go with it.
enum AnnotationSchema {
    static let tables = """
        CREATE TABLE shelf_annotations (
            row INTEGER PRIMARY KEY,
            publication_id INTEGER NOT NULL REFERENCES shelf_publications (id) ON DELETE CASCADE,
            id TEXT NOT NULL,
            href TEXT NOT NULL,
            media_type TEXT,
            progression REAL,
            total_progression REAL,
            range_start INTEGER,
            range_end INTEGER,
            quote TEXT,
            quote_prefix TEXT,
            quote_suffix TEXT,
            sealed_quote TEXT,
            sealing TEXT,
            css_selector TEXT,
            css_text_start INTEGER,
            css_text_end INTEGER,
            cfi TEXT,
            xpointer_start TEXT,
            xpointer_end TEXT,
            quote_withheld INTEGER NOT NULL DEFAULT 0,
            page INTEGER,
            headings TEXT NOT NULL DEFAULT '[]',
            color TEXT NOT NULL,
            style TEXT NOT NULL,
            note TEXT,
            tags TEXT NOT NULL DEFAULT '[]',
            created_at REAL NOT NULL,
            modified_at REAL NOT NULL,
            deleted INTEGER NOT NULL DEFAULT 0,
            UNIQUE (publication_id, id)
        );
        CREATE INDEX shelf_annotations_order ON shelf_annotations (publication_id, total_progression, href, progression, range_start, created_at);
        CREATE VIRTUAL TABLE shelf_annotation_notes USING fts5 (
            body, tokenize = 'unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER shelf_annotations_removed AFTER DELETE ON shelf_annotations BEGIN
            DELETE FROM shelf_annotation_notes WHERE rowid = old.row;
        END;
        """
}
