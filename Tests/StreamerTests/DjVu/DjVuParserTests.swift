import Foundation
import Shared
import Streamer
import Testing
import TestSupport

/// DjVu documents made by djvulibre's tools in the test (``DjVuFixtures``): a paginated
/// publication whose pages are drawn, whose hidden text is the text, whose outline is the
/// contents; damaged and hostile documents end in a clear error.
@Suite struct DjVuParserTests {
    func open(_ path: String) async throws -> Publication {
        let asset = try AssetRetriever().retrieve(path: path)
        return try await PublicationOpener(parsers: [DjVuParser()]).open(asset: asset, allowUserInteraction: false)
    }

    /// The message a failed opening shows, or nil when it opened.
    func refusal(_ path: String) async -> String? {
        do {
            _ = try await open(path)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aBundledDocumentOpensWithItsMetadataContentsTextAndPages() async throws {
        let folder = Fixtures.temporaryDirectory("djvu-book")
        let path = try DjVuFixtures.book(in: folder)
        #expect(try FormatSniffer().sniff(file: path)?.kind == .djvu)
        let publication = try await open(path)
        #expect(publication.format?.kind == .djvu)
        #expect(publication.metadata.title == "Moby Dick (abridged)")
        #expect(publication.metadata.authors.map(\.name) == ["Herman Melville"])
        #expect(publication.metadata.numberOfPages == 2)
        let contents = publication.manifest.tableOfContents
        #expect(contents.map(\.title) == ["Loomings", "Nowhere"])
        #expect(contents.first?.href == "book.djvu#page=1")
        #expect(contents.first?.children.map(\.title) == ["The Carpet-Bag"])
        #expect(contents.first?.children.first?.href == "book.djvu#page=2")
        #expect(contents.last?.href == "book.djvu", "a target past the last page goes to the document")

        let pages = try #require(publication.pageTextService)
        #expect(pages.pageCount == 2)
        #expect(pages.text(ofPage: 0) == DjVuFixtures.firstPageLines.joined(separator: "\n") + "\n\n" + DjVuFixtures.firstPageSecondParagraph)
        #expect(pages.textBlocks(ofPage: 0)?.count == 2)
        #expect(pages.text(ofPage: 1) == DjVuFixtures.secondPageLine)
        #expect(pages.text(ofPage: 2) == nil)
        #expect(pages.firstPage(containing: "whales") == 1)

        let rendering = try #require(publication.pageRenderingService)
        let size = try #require(rendering.pageSize(ofPage: 1))
        #expect(abs(size.width - 216) < 0.5 && abs(size.height - 288) < 0.5, "300 × 400 pixels at 100 dpi: \(size)")
        let page = try #require(rendering.renderPage(1, maxWidth: 150, maxHeight: 1000))
        #expect(page.width == 150 && page.height == 200 && page.layout == .rgb)
        // The band across rows 50–89 of 400 is at rows 25–44 of 200; the rest is light.
        func grey(row: Int) -> UInt8 { page.pixels[row * page.stride + 3 * 75] }
        #expect(grey(row: 35) < 90, "the band: \(grey(row: 35))")
        #expect(grey(row: 150) > 180, "the page: \(grey(row: 150))")
        let first = try #require(rendering.renderPage(0, maxWidth: 300, maxHeight: 400))
        #expect(first.pixels[120 * first.stride + 3 * 100] < 60, "the black bar of the bitonal page")
        #expect(first.pixels[300 * first.stride + 3 * 100] > 200)
    }

    @Test func aSinglePageDocumentAndADocumentWithoutText() async throws {
        let folder = Fixtures.temporaryDirectory("djvu-single")
        let single = try await open(try DjVuFixtures.singlePage(in: folder))
        #expect(single.pageTextService?.pageCount == 1)
        #expect(single.pageTextService?.text(ofPage: 0) == DjVuFixtures.firstPageLines[0])
        #expect(single.metadata.title == "page")
        #expect(single.manifest.tableOfContents.isEmpty)

        let plain = try await open(try DjVuFixtures.book(in: Fixtures.temporaryDirectory("djvu-plain"), withText: false))
        #expect(plain.pageTextService?.text(ofPage: 0) == "")
        #expect(plain.pageRenderingService?.renderPage(1, maxWidth: 100, maxHeight: 100) != nil)
    }

    @Test func hostileDocumentsEndInAClearError() async throws {
        let folder = Fixtures.temporaryDirectory("djvu-hostile")
        let whole = try Data(contentsOf: URL(fileURLWithPath: try DjVuFixtures.book(in: folder)))

        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: folder + "/truncated.djvu"))
        let truncated = await refusal(folder + "/truncated.djvu")
        #expect(truncated?.contains("damaged") == true, "\(truncated ?? "opened")")

        // The FORM chunk claiming 4 GiB, and the directory's chunk claiming more than the file.
        var form = whole
        form.replaceSubrange(8..<12, with: [0xFF, 0xFF, 0xFF, 0xF0])
        try form.write(to: URL(fileURLWithPath: folder + "/form.djvu"))
        let formSize = await refusal(folder + "/form.djvu")
        #expect(formSize?.contains("damaged") == true, "\(formSize ?? "opened")")
        var directory = whole
        #expect(directory[16..<20].elementsEqual("DIRM".utf8))
        directory.replaceSubrange(20..<24, with: [0x7F, 0xFF, 0xFF, 0xFF])
        try directory.write(to: URL(fileURLWithPath: folder + "/dirm.djvu"))
        let directorySize = await refusal(folder + "/dirm.djvu")
        #expect(directorySize?.contains("damaged") == true, "\(directorySize ?? "opened")")

        // The directory claiming 65,535 pages.
        var pages = whole
        pages.replaceSubrange(25..<27, with: [0xFF, 0xFF])
        try pages.write(to: URL(fileURLWithPath: folder + "/pages.djvu"))
        let manyPages = await refusal(folder + "/pages.djvu")
        #expect(manyPages?.contains("damaged") == true || manyPages?.contains("claims") == true, "\(manyPages ?? "opened")")

        // A page claiming 65,535 × 65,535 pixels: the document opens, the page is not decoded.
        var huge = try Data(contentsOf: URL(fileURLWithPath: try DjVuFixtures.singlePage(in: folder)))
        #expect(huge[16..<20].elementsEqual("INFO".utf8))
        huge.replaceSubrange(24..<28, with: [0xFF, 0xFF, 0xFF, 0xFF])
        try huge.write(to: URL(fileURLWithPath: folder + "/huge.djvu"))
        let hugePage = try await open(folder + "/huge.djvu")
        #expect(hugePage.pageRenderingService?.renderPage(0, maxWidth: 200, maxHeight: 200) == nil)

        // Wrong magic: not opened, whatever its name.
        try Data(repeating: 0x41, count: 200).write(to: URL(fileURLWithPath: folder + "/wrong.djvu"))
        let wrong = await refusal(folder + "/wrong.djvu")
        #expect(wrong != nil)
    }
}
