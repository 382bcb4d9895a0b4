import Foundation

/// A calibre library made by hand: calibre is not cheap to install, so `metadata.db` is
/// written with the tables and columns of calibre's documented schema that Lectern reads
/// (`books`, `authors`, `books_authors_link`, `series`, `books_series_link`, `tags`,
/// `books_tags_link`, `data`), by python3's sqlite3, and the books' files are laid out as
/// calibre lays them (`Author/Title (id)/Title - Author.epub`, `cover.jpg`).
public enum CalibreFixtures {
    /// One book: its folder (`books.path`), its files (`data.format`, `data.name`), and the rest.
    public struct Book {
        public var id: Int
        public var title: String
        public var authors: [(name: String, sort: String)]
        public var path: String
        public var formats: [(format: String, name: String)]
        public var series: (name: String, index: Double)?
        public var tags: [String]
        public var hasCover: Bool

        public init(id: Int, title: String, authors: [(name: String, sort: String)], path: String,
                    formats: [(format: String, name: String)], series: (name: String, index: Double)? = nil,
                    tags: [String] = [], hasCover: Bool = false) {
            self.id = id
            self.title = title
            self.authors = authors
            self.path = path
            self.formats = formats
            self.series = series
            self.tags = tags
            self.hasCover = hasCover
        }
    }

    /// Writes `metadata.db` for `books` into `folder` (the files are the caller's).
    public static func writeDatabase(_ books: [Book], in folder: String) throws {
        func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
        var sql = """
            CREATE TABLE books (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL DEFAULT 'Unknown' COLLATE NOCASE,
                sort TEXT COLLATE NOCASE, timestamp TIMESTAMP, pubdate TIMESTAMP, series_index REAL NOT NULL DEFAULT 1.0,
                author_sort TEXT COLLATE NOCASE, isbn TEXT DEFAULT '' COLLATE NOCASE, lccn TEXT DEFAULT '' COLLATE NOCASE,
                path TEXT NOT NULL DEFAULT '', flags INTEGER NOT NULL DEFAULT 1, uuid TEXT, has_cover BOOL DEFAULT 0,
                last_modified TIMESTAMP NOT NULL DEFAULT '2000-01-01 00:00:00+00:00');
            CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE, sort TEXT COLLATE NOCASE,
                link TEXT NOT NULL DEFAULT '', UNIQUE(name));
            CREATE TABLE books_authors_link (id INTEGER PRIMARY KEY, book INTEGER NOT NULL, author INTEGER NOT NULL, UNIQUE(book, author));
            CREATE TABLE series (id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE, sort TEXT COLLATE NOCASE, link TEXT NOT NULL DEFAULT '', UNIQUE (name));
            CREATE TABLE books_series_link (id INTEGER PRIMARY KEY, book INTEGER NOT NULL, series INTEGER NOT NULL, UNIQUE(book));
            CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE, link TEXT NOT NULL DEFAULT '', UNIQUE (name));
            CREATE TABLE books_tags_link (id INTEGER PRIMARY KEY, book INTEGER NOT NULL, tag INTEGER NOT NULL, UNIQUE(book, tag));
            CREATE TABLE data (id INTEGER PRIMARY KEY, book INTEGER NOT NULL, format TEXT NOT NULL COLLATE NOCASE,
                uncompressed_size INTEGER NOT NULL, name TEXT NOT NULL, UNIQUE(book, format));

            """
        var authors: [String: Int] = [:], series: [String: Int] = [:], tags: [String: Int] = [:]
        for book in books {
            let authorSort = book.authors.map(\.sort).joined(separator: " & ")
            sql += "INSERT INTO books (id, title, sort, series_index, author_sort, path, has_cover) VALUES "
                + "(\(book.id), \(quote(book.title)), \(quote(book.title)), \(book.series?.index ?? 1), \(quote(authorSort)), "
                + "\(quote(book.path)), \(book.hasCover ? 1 : 0));\n"
            for author in book.authors {
                if authors[author.name] == nil {
                    authors[author.name] = authors.count + 1
                    sql += "INSERT INTO authors (id, name, sort) VALUES (\(authors.count), \(quote(author.name)), \(quote(author.sort)));\n"
                }
                sql += "INSERT INTO books_authors_link (book, author) VALUES (\(book.id), \(authors[author.name]!));\n"
            }
            if let (name, _) = book.series {
                if series[name] == nil {
                    series[name] = series.count + 1
                    sql += "INSERT INTO series (id, name, sort) VALUES (\(series.count), \(quote(name)), \(quote(name)));\n"
                }
                sql += "INSERT INTO books_series_link (book, series) VALUES (\(book.id), \(series[name]!));\n"
            }
            for tag in book.tags {
                if tags[tag] == nil {
                    tags[tag] = tags.count + 1
                    sql += "INSERT INTO tags (id, name) VALUES (\(tags.count), \(quote(tag)));\n"
                }
                sql += "INSERT INTO books_tags_link (book, tag) VALUES (\(book.id), \(tags[tag]!));\n"
            }
            for (format, name) in book.formats {
                sql += "INSERT INTO data (book, format, uncompressed_size, name) VALUES (\(book.id), \(quote(format)), 1, \(quote(name)));\n"
            }
        }
        try sql.write(toFile: folder + "/schema.sql", atomically: true, encoding: .utf8)
        try Command.run(["python3", "-c", "import sqlite3,sys; c=sqlite3.connect('metadata.db'); c.executescript(open('schema.sql').read()); c.commit()"],
                        in: folder)
        try FileManager.default.removeItem(atPath: folder + "/schema.sql")
    }
}
