import Foundation
import Testing
import TestSupport

/// A calibre library made by calibre itself (#34): `calibredb add` (Debian's calibre, which
/// `make deps` installs) builds it with a series, tags and a cover; Lectern imports it, lists a
/// series in its order, finds a book calibre adds later at the next start, and never writes to
/// calibre's `metadata.db`.
@Suite struct CalibredbLibraryTests {
    /// Runs `calibredb … --with-library library` headless, with its settings in `settings`.
    static func calibredb(_ arguments: [String], library: String, settings: String) throws {
        try Command.run(["QT_QPA_PLATFORM=offscreen", "CALIBRE_CONFIG_DIRECTORY=\(settings)", "calibredb"]
                        + arguments + ["--with-library", library])
    }

    static func digest(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test func aLibraryCalibreMadeIsImportedInSeriesOrderAndGrows() throws {
        let root = Fixtures.temporaryDirectory("calibredb-library")
        let library = root + "/Calibre Library", settings = root + "/calibre-settings"
        let cover = root + "/cover.png"
        try TestImages.solid(TestImages.blue, width: 40, height: 60).write(to: URL(fileURLWithPath: cover))
        func add(_ title: String, series: String?, index: Int, tags: String, withCover: Bool = false) throws {
            let file = root + "/\(title).epub"
            try TestEPUBs.write(title: "The file's \(title)", author: "Nobody", cover: nil, to: file)
            var options = ["add", "--title", title, "--authors", "Ann Sailor", "--tags", tags]
            if let series { options += ["--series", series, "--series-index", String(index)] }
            if withCover { options += ["--cover", cover] }
            try Self.calibredb(options + [file], library: library, settings: settings)
        }
        // Added out of order: the series' number, not the order of adding, decides.
        try add("Third Voyage", series: "Sea Cycle", index: 3, tags: "Sea")
        try add("First Voyage", series: "Sea Cycle", index: 1, tags: "Sea,Night", withCover: true)
        try add("A Lone Book", series: nil, index: 0, tags: "Land")

        let lectern = LecternProcess()
        let database = try Self.digest(library + "/metadata.db")
        let imported = try lectern.run(["import", "--calibre", library])
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")

        func listed() throws -> [[String: Any]] {
            let list = try lectern.run(["list", "--json", "--sort", "series"])
            return try #require(list.json as? [[String: Any]], "\(list.stdout)\(list.stderr)")
        }
        var books = try listed()
        #expect(books.compactMap { $0["title"] as? String } == ["First Voyage", "Third Voyage", "A Lone Book"], "\(books)")
        let first = try #require(books.first)
        #expect(first["series"] as? String == "Sea Cycle" && first["series_index"] as? Double == 1, "\(first)")
        #expect(first["tags"] as? [String] == ["Night", "Sea"], "\(first)")
        #expect(first["author"] as? String == "Ann Sailor", "calibre's author wins over the file's: \(first)")
        #expect((first["cover"] as? String)?.hasSuffix("/cover.jpg") == true, "calibre's cover.jpg: \(first)")
        #expect(books[1]["cover"] is NSNull, "\(books[1])")
        let text = try lectern.run(["list", "--sort", "series"]).stdout
        #expect(text.hasPrefix("First Voyage [Sea Cycle #1] {Night, Sea} — Ann Sailor — "), "\(text)")

        // calibre adds the series' second book; the next start finds it, with no import run.
        try add("Second Voyage", series: "Sea Cycle", index: 2, tags: "Sea")
        let grown = try Self.digest(library + "/metadata.db")
        #expect(grown != database, "calibredb wrote its database")
        books = try listed()
        #expect(books.compactMap { $0["title"] as? String } == ["First Voyage", "Second Voyage", "Third Voyage", "A Lone Book"],
                "\(books)")
        #expect(try Self.digest(library + "/metadata.db") == grown, "Lectern wrote to calibre's metadata.db")
        #expect(!FileManager.default.fileExists(atPath: library + "/metadata.db-wal"))
    }
}
