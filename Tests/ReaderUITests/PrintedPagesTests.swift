import Shared
@testable import ReaderUI
import Testing
import TestSupport
import TextLayout

/// Printed pages (#29 item 8): a book's page list gives the page the top line is on and where
/// page N begins; the contents popup offers the page list and the landmarks.
@MainActor
@Suite struct PrintedPagesTests {
    static func pageListBook() async throws -> BookController {
        let path = Fixtures.temporaryDirectory("pages") + "/pages.epub"
        try PageListEPUB.write(to: path)
        let book = try await BookControllerTests.openBook(path)
        book.contents = TableOfContentsIndex(book.publication.contents)
        return book
    }

    @Test func theTopLineIsOnThePageWhoseBreakPrecedesIt() async throws {
        let book = try await Self.pageListBook()
        defer { book.close() }
        #expect(book.publication.pageList.count == 40)
        #expect(book.printedPageRange?.first == "1" && book.printedPageRange?.last == "40")
        let href = try #require(book.printedPageHref(" 25 "))
        #expect(href.hasSuffix("c2.xhtml#p25"))
        #expect(book.printedPageHref("41") == nil)
        await book.loadChapter(1, at: .fragment("p25")) { _, _ in }?.value
        #expect(book.printedPage == "25")
        let top = book.state.layout!.lines[book.state.top].text
        #expect(top.contains("Printed page 25 begins here."), "\(top)")
        // A page further down, still on page 25 until page 26's break reaches the top.
        _ = book.state.perform(.lineDown)
        #expect(book.printedPage == "25")
        // Chapter 2's heading begins page 21.
        book.state.move(to: .start)
        #expect(book.printedPage == "21")
        // Chapter 1's heading, page 1; past it page 2's break.
        await book.loadChapter(0, at: .start) { _, _ in }?.value
        #expect(book.printedPage == "1")
        book.state.move(to: .fragment("p2"))
        #expect(book.printedPage == "2")
    }

    @Test func theChildrensLiteraturePagesStartAt169() async throws {
        let book = try await BookControllerTests.openBook(Fixtures.sample("epub/idpf-childrens-literature.epub"))
        defer { book.close() }
        book.contents = TableOfContentsIndex(book.publication.contents)
        let href = try #require(book.printedPageHref("180"))
        let chapter = try #require(book.chapterIndex(of: href))
        await book.loadChapter(chapter, at: .fragment(try #require(Href.fragment(of: href)))) { _, _ in }?.value
        #expect(book.printedPage == "180")
        #expect(book.printedPageRange?.first == "169")
        #expect(!book.publication.landmarks.isEmpty)
    }

    @Test func aBookWithoutAPageListHasNoPrintedPage() async throws {
        let book = try await BookControllerTests.openBook(Fixtures.sample("epub/idpf-wasteland.epub"))
        defer { book.close() }
        book.contents = TableOfContentsIndex(book.publication.contents)
        await book.loadChapter(0, at: .start) { _, _ in }?.value
        #expect(book.printedPage == nil)
        #expect(book.printedPageHref("1") == nil)
    }

    @Test func thePopupSwitchesBetweenContentsPagesAndLandmarks() {
        let pages = (1...5).map { Link(href: "c.xhtml#p\($0)", title: "\($0)") }
        var toc = TOCState(tableOfContents: [Link(href: "c.xhtml", title: "Chapter")], pageList: pages,
                           landmarks: [Link(href: "c.xhtml", title: "Begin Reading")], currentHref: "c.xhtml", currentPage: "3")
        #expect(toc.kind == .contents && toc.otherKinds == [.pages, .landmarks])
        let pagesShown = toc.show(.pages)
        #expect(pagesShown)
        #expect(toc.selected?.title == "3")
        #expect(toc.otherKinds == [.contents, .landmarks])
        let landmarksShown = toc.show(.landmarks)
        #expect(landmarksShown)
        #expect(toc.entries.map(\.title) == ["Begin Reading"])
        let contentsShown = toc.show(.contents)
        #expect(contentsShown && toc.selected?.title == "Chapter")
        var bare = TOCState(tableOfContents: [Link(href: "c.xhtml", title: "Chapter")], currentHref: nil)
        let bareShown = bare.show(.pages)
        #expect(!bareShown && bare.kind == .contents && bare.otherKinds.isEmpty)
        #expect(TOCState.kind(forKey: "p") == .pages && TOCState.kind(forKey: "L") == .landmarks)
    }

    /// A PDF's page labels are its page list, offered in the popup as the EPUB's.
    @Test func aPDFsLabelsAreItsPageList() async throws {
        let path = Fixtures.temporaryDirectory("pages") + "/labels.pdf"
        try LabelledPDF.write(to: path)
        let book = try await BookControllerTests.openBook(path)
        defer { book.close() }
        #expect(book.publication.pageList.map(\.title) == LabelledPDF.labels)
        #expect(book.source.pageIndex(forLabel: "ii") == 1)
        #expect(book.source.pageLabel(2) == "1")
        // Text mode names the page by its label and its place, as picture mode counts it.
        #expect(book.source.pageTitle(0) == "Page i (1 of 4)")
        #expect(book.source.pageTitle(2) == "Page 1 (3 of 4)")
        #expect(book.chapterTitle == "Page i (1 of 4)")
        // Its pages are its chapters: no second page list on the status line.
        #expect(book.printedPages.isEmpty)
    }
}
