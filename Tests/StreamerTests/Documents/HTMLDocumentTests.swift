import Foundation
import Shared
import Streamer
import Testing
import TestSupport

/// An HTML page, or a folder with an index.html, opens as a book with its pictures (#34).
@Suite struct HTMLDocumentTests {
    @Test func aSinglePageWithARelativePicture() async throws {
        let folder = Fixtures.temporaryDirectory("html-page")
        try TestImages.quadrants(width: 4, height: 4).write(to: URL(fileURLWithPath: folder + "/fig.png"))
        let html = """
            <!DOCTYPE html><html lang="de"><head><title>Ein Blatt</title><meta name="author" content="Ada Example"></head>
            <body><h1 id="top">Ein Blatt</h1><p>Text<img src="fig.png" alt="Figur"><br>
            <h2 id="zwei">Zwei</h2><p>Mehr.</body></html>
            """
        let path = try DocumentOpening.write(Data(html.utf8), named: "page.html", in: folder)
        let publication = try await DocumentOpening.open(path)
        defer { publication.close() }
        #expect(publication.metadata.title == "Ein Blatt")
        #expect(publication.metadata.languages == ["de"])
        #expect(publication.metadata.authors.map(\.name) == ["Ada Example"])
        #expect(publication.readingOrder.map(\.href) == ["page.html"])
        #expect(DocumentOpening.outline(publication.tableOfContents) == ["Ein Blatt", "  Zwei"])
        #expect(publication.resources.map(\.href) == ["fig.png"])
        #expect(try publication.get("fig.png").read(range: nil).get().starts(with: [0x89, 0x50]))
    }

    @Test func aFolderWithAnIndexReadsItsLinkedPagesInOrder() async throws {
        let folder = Fixtures.temporaryDirectory("html-folder")
        try FileManager.default.createDirectory(atPath: folder + "/parts", withIntermediateDirectories: true)
        try Data("""
            <html><head><title>Site Book</title></head><body><p>Start.
            <a href="parts/two.html">two</a> <a href="parts/one.html#x">one</a> <a href="https://example.com/">web</a>
            <a href="../outside.html">out</a></body></html>
            """.utf8).write(to: URL(fileURLWithPath: folder + "/index.html"))
        try Data("<html><body><p>Page one.</body></html>".utf8).write(to: URL(fileURLWithPath: folder + "/parts/one.html"))
        try Data("<html><body><p>Page two.</body></html>".utf8).write(to: URL(fileURLWithPath: folder + "/parts/two.html"))
        let publication = try await DocumentOpening.open(folder)
        defer { publication.close() }
        #expect(publication.metadata.title == "Site Book")
        #expect(publication.readingOrder.map(\.href) == ["index.html", "parts/two.html", "parts/one.html"])
        #expect(try DocumentOpening.text(publication, "parts/one.html").contains("Page one."))
    }
}
