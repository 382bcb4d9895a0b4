import Foundation
@testable import Shared
import Testing
import TestSupport

/// Plain text, Markdown, HTML and FB2 recognised as publications where they should be, and
/// nowhere else (#34).
@Suite struct DocumentSniffingTests {
    let scratch = SniffingScratch()
    let retriever = AssetRetriever()

    @Test(arguments: [
        ("tale.txt", "It was a dark and stormy night.", Format.Kind.text),
        ("tale.TXT", "<b>markup</b> in a text file", .text),
        ("notes.md", "# Notes\n\n<div>raw</div>", .markdown),
        ("notes.markdown", "{\"json\": \"in Markdown\"}", .markdown),
        ("page.html", "<!DOCTYPE html><p>x", .html),
        ("page.xhtml", "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><body/></html>", .xhtml),
        ("book.fb2", "<?xml version=\"1.0\" encoding=\"windows-1251\"?><FictionBook><body/></FictionBook>", .fb2),
        ("book.unknown", "<FictionBook xmlns=\"http://www.gribuser.ru/xml/fictionbook/2.0\"/>", .fb2),
    ])
    func localDocumentsArePublications(_ name: String, _ content: String, _ kind: Format.Kind) throws {
        let asset = try retriever.retrieve(path: try scratch.file(name, content))
        defer { asset.fetcher.close() }
        #expect(asset.format.kind == kind)
    }

    @Test func markupNotNamedAsAPageIsNoBook() throws {
        let path = try scratch.file("page.unknown", "<!DOCTYPE html><p>x")
        do {
            _ = try retriever.retrieve(path: path)
            Issue.record("a page not named .html opened as a book")
        } catch {
            guard case .unsupportedFormat(path, detected: let detected?) = error else {
                Issue.record("expected unsupportedFormat, got \(error)")
                return
            }
            #expect(detected.kind == .html)
        }
    }

    @Test func zippedFB2AndPageFolders() throws {
        let zipped = try scratch.zip("book.fb2.zip", [.init("book.fb2", "<FictionBook/>")])
        let asset = try retriever.retrieve(path: zipped)
        defer { asset.fetcher.close() }
        #expect(asset.format.kind == .fb2Zip)
        #expect(asset.format.mediaType == .fb2Zip)
        let twoBooks = try scratch.zip("two.zip", [.init("a.fb2", "<FictionBook/>"), .init("b.fb2", "<FictionBook/>")])
        #expect(try FormatSniffer().sniff(file: twoBooks)?.kind == .zip)

        let site = try scratch.folder("site", ["index.html": "<p>x", "img/a.png": "x"])
        let page = try retriever.retrieve(path: site)
        defer { page.fetcher.close() }
        #expect(page.format.kind == .html)
    }

    @Test func remoteTextStaysUnknownContent() {
        // Any error page is text/plain: a text file is a book only on the disk.
        #expect(FormatSniffer().sniff(bytes: Data("hello".utf8), hints: FormatHints(path: "notes.txt")) == nil)
    }
}
