import Foundation
import Testing
import TestSupport

/// A book calibre adds to a library after it was imported (#34): written into the
/// calibre-made metadata.db (Tests/Fixtures/calibre-library) the way calibre writes one —
/// through its triggers, which call calibre's own SQL functions — and found by the next
/// `import --calibre`, the books already there left as they were.
@Suite struct CalibreLaterBookTests {
    /// Inserts a book row, its author link and its EPUB row as calibre does; calibre's
    /// `title_sort()` and `uuid4()`, which its triggers on `books` call, are given stand-ins.
    static let addBook = """
        import sqlite3, sys, uuid
        db = sqlite3.connect(sys.argv[1])
        db.create_function("title_sort", 1, lambda title: title)
        db.create_function("uuid4", 0, lambda: str(uuid.uuid4()))
        cursor = db.cursor()
        cursor.execute("INSERT INTO books (title, author_sort, path, has_cover, series_index, timestamp, pubdate, last_modified) "
                       "VALUES (?, ?, ?, 0, 1.0, datetime('now'), datetime('now'), datetime('now'))",
                       ("Twelfth Night", "Shakespeare, William", "William Shakespeare/Twelfth Night (2)"))
        book = cursor.lastrowid
        author = cursor.execute("SELECT id FROM authors WHERE name = 'William Shakespeare'").fetchone()[0]
        cursor.execute("INSERT INTO books_authors_link (book, author) VALUES (?, ?)", (book, author))
        cursor.execute("INSERT INTO data (book, format, uncompressed_size, name) VALUES (?, 'EPUB', 1000, ?)",
                       (book, "Twelfth Night - William Shakespeare"))
        db.commit()
        """

    @Test func aBookCalibreAddsLaterIsImportedNextTime() throws {
        let library = Fixtures.temporaryDirectory("calibre-later") + "/Calibre Library"
        let first = library + "/William Shakespeare/Much Ado About Nothing (1)"
        let later = library + "/William Shakespeare/Twelfth Night (2)"
        for folder in [first, later] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: Fixtures.path("calibre-library/metadata.db"), toPath: library + "/metadata.db")
        try TestEPUBs.write(title: "Much Ado", author: "Shakespeare", cover: nil,
                            to: first + "/Much Ado About Nothing - William Shakespeare.epub")
        let lectern = LecternProcess()
        let imported = try lectern.run(["import", "--calibre", library])
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        #expect(try lectern.run(["list", "--json"]).json.map { ($0 as? [[String: Any]])?.count } == 1)

        try TestEPUBs.write(title: "What You Will", author: "W. S.", cover: nil, to: later + "/Twelfth Night - William Shakespeare.epub")
        try Command.python(Self.addBook, [library + "/metadata.db"])
        let again = try lectern.run(["import", "--calibre", library])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        let lines = again.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("added: Twelfth Night — ") && $0.hasSuffix("/Twelfth Night - William Shakespeare.epub") },
                "\(again.stdout)")
        #expect(lines.contains { $0.hasPrefix("already in the library: Much Ado About Nothing") }, "\(again.stdout)")
        let list = try lectern.run(["list", "--json"])
        let books = try #require(list.json as? [[String: Any]], "\(list.stdout)")
        #expect(Set(books.compactMap { $0["title"] as? String }) == ["Much Ado About Nothing", "Twelfth Night"], "\(list.stdout)")
        #expect(books.allSatisfy { $0["author"] as? String == "William Shakespeare" }, "calibre's author wins: \(list.stdout)")
    }
}
