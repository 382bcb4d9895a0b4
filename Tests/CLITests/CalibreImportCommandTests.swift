import Foundation
import Testing
import TestSupport

/// `lectern import --calibre`: a calibre library (``CalibreFixtures``: its metadata.db made
/// by hand from calibre's schema, calibre itself not being installed) imported by reference,
/// with calibre's metadata; again without change; its database never written; hostile rows
/// (escapes in a title, paths leading out of the library) handled safely.
@Suite struct CalibreImportCommandTests {
    @Test func aCalibreLibraryIsImportedByReferenceOnceWithItsMetadata() throws {
        let root = Fixtures.temporaryDirectory("calibre")
        let library = root + "/Calibre Library"
        let moby = library + "/Herman Melville/Moby Dick (1)"
        let loomings = library + "/Herman Melville/Loomings (2)"
        let evil = library + "/Mallory/Evil (3)"
        for folder in [moby, loomings, evil, root + "/outside"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        // The file's own metadata differs: calibre's wins. Its PDF is listed but EPUB is preferred.
        try TestEPUBs.write(title: "The File's Own Title", author: "Nobody", cover: nil, to: moby + "/Moby Dick - Herman Melville.epub")
        _ = try DjVuFixtures.book(in: loomings, name: "Loomings - Herman Melville.djvu")
        try TestEPUBs.write(title: "Outside", cover: nil, to: root + "/outside/Outside.epub")
        try TestEPUBs.write(title: "Escaping", cover: nil, to: root + "/escape.epub")
        try CalibreFixtures.writeDatabase([
            .init(id: 1, title: "Moby Dick", authors: [("Herman Melville", "Melville, Herman")], path: "Herman Melville/Moby Dick (1)",
                  formats: [("PDF", "Moby Dick - Herman Melville"), ("EPUB", "Moby Dick - Herman Melville")],
                  series: ("Sea Stories", 2), tags: ["Whales", "Classics"]),
            .init(id: 2, title: "Loomings", authors: [("Herman Melville", "Melville, Herman")], path: "Herman Melville/Loomings (2)",
                  formats: [("DJVU", "Loomings - Herman Melville")], series: ("Sea Stories", 1)),
            // A path out of the library, and a file name out of the book's folder.
            .init(id: 3, title: "Evil\u{1B}]0;pwned\u{07} title", authors: [("Mallory", "Mallory")], path: "../outside",
                  formats: [("EPUB", "Outside")]),
            .init(id: 4, title: "Escaping", authors: [("Mallory", "Mallory")], path: "Mallory/Evil (3)",
                  formats: [("EPUB", "../../../escape")]),
        ], in: library)
        let database = try Data(contentsOf: URL(fileURLWithPath: library + "/metadata.db"))

        let lectern = LecternProcess()
        let imported = try lectern.run(["import", "--calibre", library])
        #expect(imported.status == 1, "two books have no file inside the library: \(imported.stdout)\(imported.stderr)")
        let lines = imported.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(imported.stdout)")
        // Paths are printed resolved (the temporary folder may be reached through a link).
        #expect(lines.first?.hasPrefix("added: Loomings [Sea Stories #1] — ") == true, "\(lines)")
        #expect(lines.first?.hasSuffix("/Calibre Library/Herman Melville/Loomings (2)/Loomings - Herman Melville.djvu") == true, "\(lines)")
        #expect(lines.last?.hasPrefix("added: Moby Dick [Sea Stories #2] {Classics, Whales} — ") == true, "\(lines)")
        #expect(lines.last?.hasSuffix("/Calibre Library/Herman Melville/Moby Dick (1)/Moby Dick - Herman Melville.epub") == true, "\(lines)")
        #expect(imported.stderr.contains("no file Lectern reads in the calibre library"), "\(imported.stderr)")
        #expect(!imported.stdout.contains("\u{1B}") && !imported.stderr.contains("\u{1B}"), "an escape from the database reached the terminal")

        let list = try lectern.run(["list", "--json"])
        let books = try #require(list.json as? [[String: Any]])
        #expect(Set(books.compactMap { $0["title"] as? String }) == ["Moby Dick", "Loomings"], "\(list.stdout)")
        #expect(books.allSatisfy { $0["author"] as? String == "Herman Melville" }, "\(list.stdout)")
        #expect(books.allSatisfy { ($0["path"] as? String)?.contains("/Calibre Library/Herman Melville/") == true }, "by reference: \(list.stdout)")

        let again = try lectern.run(["import", "--calibre", library])
        #expect(again.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("already in the library: ") }, "\(again.stdout)")
        #expect(try lectern.run(["list", "--json"]).json.map { ($0 as? [[String: Any]])?.count } == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: library + "/metadata.db")) == database, "metadata.db was written")
        #expect(!FileManager.default.fileExists(atPath: library + "/metadata.db-wal"))
    }

    /// Series (name and number), tags and cover.jpg are kept on the shelf (library/9-calibre-details),
    /// listed, changed when calibre changes them, and kept when the file alone is imported again.
    @Test func seriesTagsAndCoverAreKept() throws {
        let library = Fixtures.temporaryDirectory("calibre-details") + "/Calibre Library"
        let folder = library + "/Herman Melville/Moby Dick (1)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/Moby Dick - Herman Melville.epub"
        try TestEPUBs.write(title: "Moby Dick", author: "Herman Melville", cover: nil, to: file)
        try TestImages.solid(TestImages.blue, width: 40, height: 60).write(to: URL(fileURLWithPath: folder + "/cover.jpg"))
        func book(tags: [String], index: Double) -> CalibreFixtures.Book {
            .init(id: 1, title: "Moby Dick", authors: [("Herman Melville", "Melville, Herman")], path: "Herman Melville/Moby Dick (1)",
                  formats: [("EPUB", "Moby Dick - Herman Melville")], series: ("Sea Stories", index), tags: tags, hasCover: true)
        }
        try CalibreFixtures.writeDatabase([book(tags: ["Whales", "Classics\u{1B}[2J"], index: 2.5)], in: library)
        let lectern = LecternProcess()
        #expect(try lectern.run(["import", "--calibre", library]).status == 0)

        func listed() throws -> [String: Any] {
            let list = try lectern.run(["list", "--json"])
            return try #require((list.json as? [[String: Any]])?.first, "\(list.stdout)")
        }
        var entry = try listed()
        #expect(entry["series"] as? String == "Sea Stories")
        #expect(entry["series_index"] as? Double == 2.5)
        #expect(entry["tags"] as? [String] == ["Classics [2J", "Whales"], "control characters dropped: \(entry)")
        #expect((entry["cover"] as? String)?.hasSuffix("/Moby Dick (1)/cover.jpg") == true, "\(entry)")
        let text = try lectern.run(["list"]).stdout
        #expect(text.hasPrefix("Moby Dick [Sea Stories #2.5] {Classics [2J, Whales} — Herman Melville — "), "\(text)")

        // calibre changes the tags and the number: importing again says so and takes them.
        try FileManager.default.removeItem(atPath: library + "/metadata.db")
        try CalibreFixtures.writeDatabase([book(tags: ["Sea"], index: 3)], in: library)
        let again = try lectern.run(["import", "--calibre", library])
        #expect(again.stdout.hasPrefix("updated: Moby Dick [Sea Stories #3] {Sea} — "), "\(again.stdout)")
        entry = try listed()
        #expect(entry["tags"] as? [String] == ["Sea"] && entry["series_index"] as? Double == 3, "\(entry)")

        // `info` on the file says what the library holds of it.
        let info = try lectern.run(["info", file])
        #expect(info.stdout.contains("\nSeries:       Sea Stories #3\n") && info.stdout.contains("\nTags:         Sea\n"), "\(info.stdout)")
        let json = try #require(try lectern.run(["info", "--json", file]).json as? [String: Any])
        #expect((json["library"] as? [String: Any])?["tags"] as? [String] == ["Sea"], "\(json)")

        // Importing the file by itself keeps what calibre said.
        #expect(try lectern.run(["import", file]).status == 0)
        entry = try listed()
        #expect(entry["series"] as? String == "Sea Stories" && entry["tags"] as? [String] == ["Sea"], "\(entry)")
    }

    /// A metadata.db calibre made itself (Tests/Fixtures/calibre-library, see its README: calibre's
    /// whole schema, triggers calling calibre's own SQL functions), with the book's EPUB and
    /// cover written where it says: imported with its title, authors, tags and cover, the
    /// database unchanged.
    @Test func aLibraryMadeByCalibreItselfIsImported() throws {
        let library = Fixtures.temporaryDirectory("calibre-made") + "/Calibre Library"
        let folder = library + "/William Shakespeare/Much Ado About Nothing (1)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.path("calibre-library/metadata.db"), toPath: library + "/metadata.db")
        let database = try Data(contentsOf: URL(fileURLWithPath: library + "/metadata.db"))
        try TestEPUBs.write(title: "Much Ado", author: "Shakespeare", cover: nil,
                            to: folder + "/Much Ado About Nothing - William Shakespeare.epub")
        try TestImages.solid(TestImages.blue, width: 40, height: 60).write(to: URL(fileURLWithPath: folder + "/cover.jpg"))

        let lectern = LecternProcess()
        let imported = try lectern.run(["import", "--calibre", library])
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("added: Much Ado About Nothing {Comedies, Conspiracies -- Drama, Courtship -- Drama, "
                                          + "Messina (Italy) -- Drama, Rejection (Psychology) -- Drama} — "), "\(imported.stdout)")
        let list = try lectern.run(["list", "--json"])
        let entry = try #require((list.json as? [[String: Any]])?.first, "\(list.stdout)")
        #expect(entry["title"] as? String == "Much Ado About Nothing")
        #expect(entry["author"] as? String == "William Shakespeare")
        #expect((entry["tags"] as? [String])?.count == 5 && entry["series"] is NSNull, "\(entry)")
        #expect((entry["cover"] as? String)?.hasSuffix("/Much Ado About Nothing (1)/cover.jpg") == true, "\(entry)")
        #expect((entry["path"] as? String)?.hasSuffix(".epub") == true, "the EPUB, not the missing MOBI: \(entry)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: library + "/metadata.db")) == database, "metadata.db was written")
    }

    /// A cover.jpg that is a link to a file outside the library is not taken (the shelf would
    /// read any picture the link names); the book is imported without it.
    @Test func aCoverLeadingOutOfTheLibraryIsNotTaken() throws {
        let root = Fixtures.temporaryDirectory("calibre-cover-link")
        let library = root + "/Calibre Library"
        let folder = library + "/Mallory/Linked (1)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try TestEPUBs.write(title: "Linked", cover: nil, to: folder + "/Linked - Mallory.epub")
        try TestImages.solid(TestImages.red).write(to: URL(fileURLWithPath: root + "/private.png"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/cover.jpg", withDestinationPath: root + "/private.png")
        try CalibreFixtures.writeDatabase([.init(id: 1, title: "Linked", authors: [("Mallory", "Mallory")], path: "Mallory/Linked (1)",
                                                 formats: [("EPUB", "Linked - Mallory")], tags: ["Odd"], hasCover: true)], in: library)
        let lectern = LecternProcess()
        #expect(try lectern.run(["import", "--calibre", library]).status == 0)
        let list = try lectern.run(["list", "--json"])
        let entry = try #require((list.json as? [[String: Any]])?.first, "\(list.stdout)")
        #expect(entry["cover"] is NSNull && entry["tags"] as? [String] == ["Odd"], "\(entry)")
    }

    @Test func aFolderWithoutMetadataIsNoCalibreLibrary() throws {
        let result = try LecternProcess().run(["import", "--calibre", Fixtures.temporaryDirectory("not-calibre")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("is not a calibre library: it has no metadata.db"), "\(result.stderr)")
    }
}
