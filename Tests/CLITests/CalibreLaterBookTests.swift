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

    /// A copy of the calibre-made library with its one book's file; returns the library folder
    /// and the folder of the book added later.
    static func makeLibrary(_ name: String) throws -> (library: String, later: String) {
        let library = Fixtures.temporaryDirectory(name) + "/Calibre Library"
        let first = library + "/William Shakespeare/Much Ado About Nothing (1)"
        let later = library + "/William Shakespeare/Twelfth Night (2)"
        for folder in [first, later] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: Fixtures.path("calibre-library/metadata.db"), toPath: library + "/metadata.db")
        try TestEPUBs.write(title: "Much Ado", author: "Shakespeare", cover: nil,
                            to: first + "/Much Ado About Nothing - William Shakespeare.epub")
        return (library, later)
    }

    @Test func aBookCalibreAddsLaterIsImportedNextTime() throws {
        let (library, later) = try Self.makeLibrary("calibre-later")
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

    /// Renames a book in metadata.db (through calibre's update trigger); a non-empty third
    /// argument moves its `last_modified` that far ahead ("+1 day"), and "1" as the fourth puts
    /// the file's time back afterwards.
    static let renameBook = """
        import os, sqlite3, sys
        path, old, new, ahead, keep = sys.argv[1:6]
        before = os.stat(path)
        db = sqlite3.connect(path)
        db.create_function("title_sort", 1, lambda title: title)
        db.execute("UPDATE books SET title = ? WHERE title = ?", (new, old))
        if ahead:
            db.execute("UPDATE books SET last_modified = datetime('now', ?) WHERE title = ?", (ahead, new))
        db.commit()
        db.close()
        assert os.stat(path).st_size == before.st_size
        if keep == "1":
            os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        """

    static func titles(_ lectern: LecternProcess) throws -> Set<String> {
        let list = try lectern.run(["list", "--json"])
        #expect(list.status == 0 && list.stderr.isEmpty, "\(list.stdout)\(list.stderr)")
        let books = try #require(list.json as? [[String: Any]], "\(list.stdout)")
        return Set(books.compactMap { $0["title"] as? String })
    }

    /// The next start finds calibre's new book without `import` (#34: metadata.db's time and
    /// size, then its latest last_modified), and re-imports nothing when calibre changed nothing.
    @Test func aBookCalibreAddsIsListedAtTheNextStart() throws {
        let (library, later) = try Self.makeLibrary("calibre-next-start")
        let lectern = LecternProcess()
        let imported = try lectern.run(["import", "--calibre", library])
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        #expect(try Self.titles(lectern) == ["Much Ado About Nothing"])

        try TestEPUBs.write(title: "What You Will", author: "W. S.", cover: nil, to: later + "/Twelfth Night - William Shakespeare.epub")
        try Command.python(Self.addBook, [library + "/metadata.db"])
        #expect(try Self.titles(lectern) == ["Much Ado About Nothing", "Twelfth Night"])

        // The file changed but no book's last_modified did: not imported again.
        let database = library + "/metadata.db"
        try Command.python(Self.renameBook, [database, "Twelfth Night", "As You Like It", "", "0"])
        #expect(try Self.titles(lectern) == ["Much Ado About Nothing", "Twelfth Night"])
        // last_modified changed but the file's time and size are as before: a stat only.
        try Command.python(Self.renameBook, [database, "As You Like It", "The Tempest", "+1 day", "1"])
        #expect(try Self.titles(lectern) == ["Much Ado About Nothing", "Twelfth Night"])
        // Both changed: imported again.
        try Command.python(Self.renameBook, [database, "The Tempest", "Measure for Measure", "+2 days", "0"])
        #expect(try Self.titles(lectern) == ["Much Ado About Nothing", "Measure for Measure"])
    }

    /// A remembered library that is gone is said once on stderr; the list is still shown.
    @Test func aCalibreLibraryThatIsGoneIsSkipped() throws {
        let (library, _) = try Self.makeLibrary("calibre-gone")
        let lectern = LecternProcess()
        #expect(try lectern.run(["import", "--calibre", library]).status == 0)
        try FileManager.default.moveItem(atPath: library, toPath: library + " (moved)")
        let list = try lectern.run(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Much Ado About Nothing"), "\(list.stdout)")
        let lines = list.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("not found"), "\(list.stderr)")
    }

    /// `calibre_library` in config.toml: imported without `import`, its new books at the next start.
    @Test func theConfiguredCalibreLibraryIsOnTheShelf() throws {
        let (library, later) = try Self.makeLibrary("calibre-config")
        let lectern = LecternProcess()
        let config = lectern.home + "/config/lectern"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try Data("calibre_library = \"\(library)\"\n".utf8).write(to: URL(fileURLWithPath: config + "/config.toml"))
        #expect(try Self.titles(lectern) == ["Much Ado About Nothing"])
        try TestEPUBs.write(title: "What You Will", author: "W. S.", cover: nil, to: later + "/Twelfth Night - William Shakespeare.epub")
        try Command.python(Self.addBook, [library + "/metadata.db"])
        #expect(try Self.titles(lectern) == ["Much Ado About Nothing", "Twelfth Night"])
    }
}
