import Foundation
import LibPoppler
import Shared
@testable import Streamer
import Testing
import TestSupport

/// PDF pages read in blocks from poppler's layout: headings (larger type), running heads and
/// page numbers apart from the paragraphs they used to run into.
@Suite struct PageStructureTests {
    /// A page of 300×200 points: a small running head, an 18-point numbered heading (number
    /// and title set apart on one baseline), two 10-point paragraphs, a centred page number.
    static let page = """
        BT /F1 8 Tf 20 188 Td (A Study of Things) Tj ET
        BT /F1 18 Tf 20 150 Td (1) Tj 40 0 Td (Foo) Tj ET
        BT /F1 10 Tf 20 128 Td (Hello, here is the first line of a paragraph) Tj 0 -12 Td (that goes on for a second line.) Tj \
        0 -20 Td (A second paragraph starts here and takes) Tj 0 -12 Td (two lines.) Tj ET
        BT /F1 10 Tf 145 10 Td (7) Tj ET
        """

    @Test func headingsRunningHeadsAndPageNumbersAreBlocksOfTheirOwn() throws {
        let path = try PDFBuilder.text(pages: [Self.page]).write()
        let document = try PDFDocument(path: path)
        let blocks = try #require(structure(document, page: 0))
        #expect(blocks == [
            PageTextBlock(kind: .margin, text: "A Study of Things"),
            PageTextBlock(kind: .heading, text: "1 Foo"),
            PageTextBlock(kind: .paragraph, text: "Hello, here is the first line of a paragraph\nthat goes on for a second line."),
            PageTextBlock(kind: .paragraph, text: "A second paragraph starts here and takes\ntwo lines."),
            PageTextBlock(kind: .margin, text: "7"),
        ])
        // The plain text keeps them apart with blank lines.
        #expect(PDFPageTextService(document: document).text(ofPage: 0)?.hasPrefix("A Study of Things\n\n1 Foo\n\nHello, here is") == true)
    }

    @Test func pdflatexSectionsAndPageNumbersAreApart() throws {
        let document = try PDFDocument(path: Fixtures.sample("pdf/pypdf-pdflatex-outline.pdf"))
        let page = try #require(structure(document, page: 1))
        #expect(page.first == PageTextBlock(kind: .heading, text: "1 Foo"))
        #expect(page[1].kind == .paragraph && page[1].text.hasPrefix("Hello, here is some text"))
        #expect(page.contains(PageTextBlock(kind: .heading, text: "2 Bar")))
        #expect(page.last == PageTextBlock(kind: .margin, text: "2"))
        // No paragraph holds a heading or the page number.
        #expect(!page.contains { $0.kind == .paragraph && ($0.text.contains("Foo") || $0.text.hasSuffix(" 2")) })
        let contents = try #require(structure(document, page: 0))
        #expect(contents.first == PageTextBlock(kind: .heading, text: "Contents"))
        #expect(contents.last == PageTextBlock(kind: .margin, text: "1"))
        // Each entry a paragraph of its own, its page number apart from its title (poppler
        // gives "1 Foo2": the number stands at the right margin with nothing between).
        #expect(Array(contents.dropFirst().dropLast()) == zip(["1 Foo", "2 Bar", "3 Baz", "4 Foo", "5 Bar", "6 Baz", "7 Foo", "8 Bar", "9 Baz"],
                                                             [2, 2, 2, 2, 3, 3, 3, 4, 4]).map {
            PageTextBlock(kind: .paragraph, text: "\($0) … \($1)")
        })
    }

    /// A contents page set with leader dots (spaced or not, arabic and roman numbers; the
    /// pdflatex sample above has wide gaps) and a paragraph with a number at a line's end: the entries are paragraphs of their own, the paragraph stays whole.
    @Test func contentsEntriesWithLeadersOrGapsAreParagraphsOfTheirOwn() throws {
        let page = """
            BT /F1 10 Tf 20 170 Td (Introduction . . . . . . . . 1) Tj 0 -14 Td (Methods............ 12) Tj ET
            BT /F1 10 Tf 20 142 Td (Appendix . . . . . . . . . . iv) Tj ET
            BT /F1 10 Tf 20 110 Td (The whale was first seen in the year 1851) Tj 0 -12 Td (off the coast of Nantucket.) Tj ET
            """
        let document = try PDFDocument(path: try PDFBuilder.text(pages: [page]).write())
        let blocks = try #require(structure(document, page: 0))
        #expect(blocks == [
            PageTextBlock(kind: .paragraph, text: "Introduction … 1"),
            PageTextBlock(kind: .paragraph, text: "Methods … 12"),
            PageTextBlock(kind: .paragraph, text: "Appendix … iv"),
            PageTextBlock(kind: .paragraph, text: "The whale was first seen in the year 1851\noff the coast of Nantucket."),
        ], "\(blocks)")
    }

    /// The blocks the Streamer makes of the page's layout from poppler.
    func structure(_ document: PDFDocument, page: Int) -> [PageTextBlock]? {
        document.textLayout(ofPage: page).map(PageStructure.blocks(of:))
    }

    @Test func thePageNumberOfEachPdflatexPageIsABlockOfItsOwn() throws {
        let service = PDFPageTextService(document: try PDFDocument(path: Fixtures.sample("pdf/pypdf-pdflatex-4-pages.pdf")))
        let pages = try (0..<4).map { try #require(service.text(ofPage: $0), "page \($0 + 1)") }
        for (index, text) in pages.enumerated() {
            #expect(text.hasSuffix("\n\n\(index + 1)"), "page \(index + 1)")
        }
        #expect(pages[3].hasSuffix("the length of words should match the language.\n\n4"))
    }

    @Test(arguments: ["7", "- 7 -", "(vii)", "Page 7", "p. 12", "7 / 9", "7/9", "Page 3 of 10", "xiv"])
    func pageNumbersAreRecognised(_ text: String) {
        #expect(PageStructure.isPageNumber(text))
    }

    @Test(arguments: ["1 Foo", "Chapter 7", "It was 1851.", "", "mix", "123456"])
    func otherLinesAreNotPageNumbers(_ text: String) {
        #expect(!PageStructure.isPageNumber(text))
    }
}
