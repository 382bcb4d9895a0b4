import LibSQLite

/// The bookshelf's tables (append steps, never edit one).
enum LibrarySchema {
    /// The steps of the scheme before named migrations, which `PRAGMA user_version` counted
    /// (kept as they were: a database at version *n* has the first *n*).
    static let migrations: [String] = [
        """
        CREATE TABLE shelf_publications (
            id INTEGER PRIMARY KEY,
            identity TEXT NOT NULL UNIQUE,
            path TEXT NOT NULL,
            title TEXT NOT NULL,
            sort_title TEXT NOT NULL,
            author TEXT NOT NULL DEFAULT '',
            sort_author TEXT NOT NULL DEFAULT '',
            format TEXT NOT NULL DEFAULT '',
            protection TEXT NOT NULL DEFAULT 'none',
            license_id TEXT,
            acquired INTEGER NOT NULL DEFAULT 0,
            added_at REAL NOT NULL,
            opened_at REAL,
            progress REAL,
            locator TEXT
        );
        CREATE INDEX shelf_publications_title ON shelf_publications (sort_title, sort_author);
        CREATE INDEX shelf_publications_author ON shelf_publications (sort_author, sort_title);
        CREATE INDEX shelf_publications_opened ON shelf_publications (opened_at DESC, added_at DESC);
        CREATE INDEX shelf_publications_path ON shelf_publications (path);
        CREATE TABLE shelf_bookmarks (
            id INTEGER PRIMARY KEY,
            publication_id INTEGER NOT NULL REFERENCES shelf_publications (id) ON DELETE CASCADE,
            locator TEXT NOT NULL,
            label TEXT NOT NULL,
            progress REAL,
            created_at REAL NOT NULL
        );
        CREATE INDEX shelf_bookmarks_publication ON shelf_bookmarks (publication_id, progress);
        CREATE TABLE shelf_text_lengths (
            identity TEXT PRIMARY KEY NOT NULL,
            lengths TEXT NOT NULL
        );
        """,
        // Library-wide full-text search (issue #15): the text of unprotected publications, in
        // chunks of about a screenful, indexed with FTS5. The chunks table holds the text as
        // indexed (scripts without spaces segmented, see ``ScriptSegmentation``) and is the
        // index's external content, so the text is stored once; triggers keep the two in step,
        // and deleting a publication deletes its chunks (and so its index entries).
        """
        CREATE TABLE shelf_fulltext_books (
            publication_id INTEGER PRIMARY KEY REFERENCES shelf_publications (id) ON DELETE CASCADE,
            next_item INTEGER NOT NULL DEFAULT 0,
            complete INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE shelf_fulltext_chunks (
            id INTEGER PRIMARY KEY,
            publication_id INTEGER NOT NULL REFERENCES shelf_publications (id) ON DELETE CASCADE,
            href TEXT NOT NULL,
            start INTEGER NOT NULL,
            resource_length INTEGER NOT NULL,
            body TEXT NOT NULL
        );
        CREATE INDEX shelf_fulltext_chunks_publication ON shelf_fulltext_chunks (publication_id);
        CREATE VIRTUAL TABLE shelf_fulltext USING fts5 (
            body, content = 'shelf_fulltext_chunks', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER shelf_fulltext_chunks_added AFTER INSERT ON shelf_fulltext_chunks BEGIN
            INSERT INTO shelf_fulltext (rowid, body) VALUES (new.id, new.body);
        END;
        CREATE TRIGGER shelf_fulltext_chunks_removed AFTER DELETE ON shelf_fulltext_chunks BEGIN
            INSERT INTO shelf_fulltext (shelf_fulltext, rowid, body) VALUES ('delete', old.id, old.body);
        END;
        """,
        // Typographic equivalents (#29 item 9): the index holds the text with ligatures and
        // curly quotes folded (``TypographicFolding``), kept in `folded_body` only where it
        // differs from the text shown. Folding never changes how many words a passage has,
        // so FTS5's snippets, read from `body`, mark the right words. Existing indexes were
        // built without it: they are emptied, and every book is pending again — the bookshelf
        // re-indexes them in the background, `lectern index` at once.
        """
        DROP TRIGGER shelf_fulltext_chunks_added;
        DROP TRIGGER shelf_fulltext_chunks_removed;
        DROP TABLE shelf_fulltext;
        DELETE FROM shelf_fulltext_chunks;
        DELETE FROM shelf_fulltext_books;
        ALTER TABLE shelf_fulltext_chunks ADD COLUMN folded_body TEXT;
        CREATE VIRTUAL TABLE shelf_fulltext USING fts5 (
            body, content = 'shelf_fulltext_chunks', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER shelf_fulltext_chunks_added AFTER INSERT ON shelf_fulltext_chunks BEGIN
            INSERT INTO shelf_fulltext (rowid, body) VALUES (new.id, COALESCE(new.folded_body, new.body));
        END;
        CREATE TRIGGER shelf_fulltext_chunks_removed AFTER DELETE ON shelf_fulltext_chunks BEGIN
            INSERT INTO shelf_fulltext (shelf_fulltext, rowid, body) VALUES ('delete', old.id, COALESCE(old.folded_body, old.body));
        END;
        """,
    ]
}

extension LibrarySchema {
    /// The library's named steps: the three of `PRAGMA user_version`, then the side tables
    /// that were created with `IF NOT EXISTS` on every use (they keep the clause, since a
    /// database of the earlier scheme may have some of them and not others).
    static let named: SQLiteMigrations = {
        let legacy = ["publications-bookmarks-text-lengths", "fulltext", "fulltext-typographic-folding"]
        // Each earlier step still advances user_version, so that a Lectern of the earlier
        // scheme opening the file finds the tables it expects instead of creating them again.
        var steps = zip(legacy, migrations).enumerated().map { index, step in
            SQLiteMigrations.Step("\(index + 1)-\(step.0)", step.1 + ";\nPRAGMA user_version = \(index + 1);")
        }
        steps += [
            .init("4-locations", LibraryLocations.table),
            .init("5-reading-statistics", ReadingStatisticsStore.table),
            .init("6-zip-passwords", RememberedPasswords.table),
            .init("7-annotations", AnnotationSchema.tables),
            .init("8-bookmark-sync", BookmarkSyncSchema.columns),
            .init("9-calibre-details", CalibreDetailsSchema.columns),
            .init("10-calibre-sources", CalibreSourcesSchema.table),
            .init("11-chapter-checkpoints", ChapterCheckpointsSchema.table),
        ]
        return SQLiteMigrations(module: "library", steps: steps) { database throws(SQLiteError) in
            try database.query("PRAGMA user_version").first?.int(0) ?? 0
        }
    }()
}
