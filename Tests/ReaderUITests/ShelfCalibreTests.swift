import Bookshelf
import Foundation
@testable import ReaderUI
import Shared
import Testing
import TestSupport

/// A calibre book on the bookshelf (#34): its series and tags narrow the filter, the cover
/// panel names them, and calibre's cover.jpg is the cover shown (not the file's own).
@Suite struct ShelfCalibreTests {
    static func entries() -> [LibraryEntry] {
        [LibraryEntry(id: 1, identity: "a", path: "/books/a.epub", title: "Moby Dick", author: "Herman Melville",
                      series: "Sea Stories", seriesIndex: 2, tags: ["Classics", "Whales"]),
         LibraryEntry(id: 2, identity: "b", path: "/books/b.epub", title: "Emma", author: "Jane Austen", tags: ["Romance"])]
    }

    static func filtered(_ typed: String) -> [String] {
        var shelf = ShelfState(sort: .title)
        shelf.setEntries(entries(), loans: [:])
        _ = shelf.handle(.character("/"))
        for character in typed { _ = shelf.handle(.character(character)) }
        return shelf.visible.map { shelf.entries[$0].identity }
    }

    @Test func theFilterMatchesSeriesAndTags() {
        #expect(Self.filtered("whales") == ["a"])
        #expect(Self.filtered("sea stor") == ["a"])
        #expect(Self.filtered("romance") == ["b"])
        #expect(Self.filtered("classics austen").isEmpty)
    }

    @Test func theCoverPanelNamesSeriesAndTags() {
        let entries = Self.entries()
        #expect(ShelfCoverView.seriesAndTags(entries[0]) == "Sea Stories #2 · Classics, Whales")
        #expect(ShelfCoverView.seriesAndTags(entries[1]) == "Romance")
        #expect(ShelfCoverView.seriesAndTags(LibraryEntry(identity: "c", path: "/c.epub", title: "C")).isEmpty)
    }

    /// The EPUB's own cover is green, calibre's cover.jpg blue: blue is shown. A cover.jpg that
    /// is no picture leaves the file's own.
    @Test func calibresCoverWinsOverTheFilesOwn() async throws {
        let folder = Fixtures.temporaryDirectory("calibre-cover")
        let path = folder + "/book.epub"
        try TestEPUBs.write(title: "Green Book", cover: TestImages.solid(TestImages.green, width: 60, height: 90), to: path)
        try TestImages.solid(TestImages.blue, width: 40, height: 60).write(to: URL(fileURLWithPath: folder + "/cover.jpg"))
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: folder + "/broken.jpg"))
        var entry = LibraryEntry(id: 1, identity: "id:calibre#1", path: path, title: "T", cover: folder + "/cover.jpg")
        let cover = await ShelfCoverTests.loader().cover(of: entry)
        #expect(ShelfCoverTests.middle(cover).map { $0.2 > 200 && $0.1 < 60 } == true, "blue, calibre's: \(cover)")
        entry.identity = "id:calibre#2"
        entry.cover = folder + "/broken.jpg"
        let own = await ShelfCoverTests.loader().cover(of: entry)
        #expect(ShelfCoverTests.middle(own).map { $0.1 > 200 && $0.2 < 60 } == true, "green, the file's own: \(own)")
    }
}
