import Foundation
import Testing
import TestSupport

/// `lectern info`, `check` and `render` on Mobipocket and KF8 books (libmobi's samples, see
/// Tests/Fixtures/libmobi-samples), and a DRM-protected one refused by name.
@Suite struct MOBICommandTests {
    static func sample(_ name: String) -> String { Fixtures.path("libmobi-samples/" + name) }

    @Test func infoCheckAndRenderAnOldMobipocketBook() throws {
        let lectern = LecternProcess()
        let path = Self.sample("sample-cp1252.mobi")
        let info = try lectern.run(["info", "--json", path])
        #expect(info.status == 0, "\(info.stderr)")
        let json = try #require(info.json as? [String: Any])
        #expect(json["format"] as? String == "mobi")
        let metadata = try #require((json["manifest"] as? [String: Any])?["metadata"] as? [String: Any])
        #expect(metadata["title"] as? String == "Libmobi test sample")
        #expect(metadata["language"] as? String == "en-us" || (metadata["language"] as? [String]) == ["en-us"], "\(metadata)")

        let check = try lectern.run(["check", path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        let render = try lectern.run(["render", path, "--width", "70"])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stdout.contains("This is a sample for testing libmobi project."))
        // The book quotes C (`#include <mobi.h>`): only its own markup must not show.
        #expect(!render.stdout.contains("<h1") && !render.stdout.contains("<a id") && !render.stdout.contains("<guide"))
    }

    @Test func infoAndCheckAKF8Book() throws {
        let lectern = LecternProcess()
        let info = try lectern.run(["info", "--json", Self.sample("sample-kf8.azw3")])
        #expect(info.status == 0, "\(info.stderr)")
        #expect((info.json as? [String: Any])?["format"] as? String == "azw3")
        let check = try lectern.run(["check", Self.sample("sample-kf8.azw3")])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test func aDRMProtectedKindleBookIsRefusedByName() throws {
        let result = try LecternProcess().run(["info", Self.sample("sample-drm-v2.mobi")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Mobipocket/Kindle DRM"), "\(result.stderr)")
        // Refused as a protection, not called damage.
        #expect(result.stderr.contains("access denied") && !result.stderr.contains("damaged"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aFolderImportTakesMOBIAndComicArchivesAndLibrarySearchFindsTheText() throws {
        let folder = Fixtures.temporaryDirectory("import-kindle")
        try FileManager.default.copyItem(atPath: Self.sample("sample-cp1252.mobi"), toPath: folder + "/book.mobi")
        try FileManager.default.copyItem(atPath: Self.sample("sample-kf8.azw3"), toPath: folder + "/kf8.azw3")
        try TestImages.solid(TestImages.red).write(to: URL(fileURLWithPath: folder + "/page1.png"))
        try Command.run(["tar", "cf", "comic.cbt", "page1.png"], in: folder)
        try FileManager.default.removeItem(atPath: folder + "/page1.png")
        let lectern = LecternProcess()
        let imported = try lectern.run(["import", folder])
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        let list = try lectern.run(["list", "--json"])
        let books = try #require(list.json as? [[String: Any]])
        #expect(books.count == 3, "\(list.stdout)")
        let found = try lectern.run(["search", "Libmobi features", "--json"])
        #expect(found.status == 0, "\(found.stderr)")
        let hits = try #require(found.json as? [[String: Any]])
        #expect(hits.first?["title"] as? String == "Libmobi test sample", "\(found.stdout)")
    }
}
