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

    @Test func aFolderWithoutMetadataIsNoCalibreLibrary() throws {
        let result = try LecternProcess().run(["import", "--calibre", Fixtures.temporaryDirectory("not-calibre")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("is not a calibre library: it has no metadata.db"), "\(result.stderr)")
    }
}
