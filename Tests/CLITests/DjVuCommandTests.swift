import Foundation
import Testing
import TestSupport

/// `lectern info`, `check`, `text`, `import` and `search` on a DjVu document made by
/// djvulibre's tools in the test (``DjVuFixtures``); a damaged one refused with a clear error.
@Suite struct DjVuCommandTests {
    @Test func infoCheckAndTextOfADjVuDocument() throws {
        let path = try DjVuFixtures.book(in: Fixtures.temporaryDirectory("djvu-cli"))
        let lectern = LecternProcess()
        let info = try lectern.run(["info", "--json", path])
        #expect(info.status == 0, "\(info.stderr)")
        let json = try #require(info.json as? [String: Any])
        #expect(json["format"] as? String == "djvu")
        let manifest = try #require(json["manifest"] as? [String: Any])
        let metadata = try #require(manifest["metadata"] as? [String: Any])
        #expect(metadata["title"] as? String == "Moby Dick (abridged)")
        #expect(metadata["numberOfPages"] as? Int == 2)
        let toc = try #require(manifest["toc"] as? [[String: Any]])
        #expect(toc.map { $0["title"] as? String } == ["Loomings", "Nowhere"])

        let check = try lectern.run(["check", path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        let text = try lectern.run(["text", path])
        #expect(text.status == 0, "\(text.stderr)")
        for line in DjVuFixtures.firstPageLines + [DjVuFixtures.firstPageSecondParagraph, DjVuFixtures.secondPageLine] {
            #expect(text.stdout.contains(line), "\(text.stdout)")
        }
    }

    @Test func aFolderImportTakesDjVuOnceAndLibrarySearchFindsItsText() throws {
        let folder = Fixtures.temporaryDirectory("djvu-import")
        _ = try DjVuFixtures.book(in: folder, name: "moby.djvu")
        for scratch in ["p1.pbm", "p2.pgm", "p1.djvu", "p2.djvu"] { try FileManager.default.removeItem(atPath: folder + "/" + scratch) }
        let lectern = LecternProcess()
        let imported = try lectern.run(["import", folder])
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        #expect(imported.stdout.contains("added: Moby Dick (abridged)"), "\(imported.stdout)")
        let again = try lectern.run(["import", folder])
        #expect(again.stdout.contains("already in the library"), "\(again.stdout)")
        let list = try lectern.run(["list", "--json"])
        let books = try #require(list.json as? [[String: Any]])
        #expect(books.map { $0["format"] as? String } == ["DjVu"], "\(list.stdout)")
        let found = try lectern.run(["search", "whales", "--json"])
        #expect(found.status == 0, "\(found.stderr)")
        let hits = try #require(found.json as? [[String: Any]])
        #expect(hits.first?["title"] as? String == "Moby Dick (abridged)", "\(found.stdout)")
        #expect(hits.first?["href"] as? String == "moby.djvu#page=2", "\(found.stdout)")
    }

    @Test func aTruncatedDocumentIsRefusedAsDamaged() throws {
        let folder = Fixtures.temporaryDirectory("djvu-cli-damaged")
        let whole = try Data(contentsOf: URL(fileURLWithPath: try DjVuFixtures.book(in: folder)))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: folder + "/cut.djvu"))
        let result = try LecternProcess().run(["info", folder + "/cut.djvu"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("the DjVu document is damaged: page 2 of 2 cannot be read (the file is cut short)"), "\(result.stderr)")
    }
}
