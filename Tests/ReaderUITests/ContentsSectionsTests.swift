import Shared
@testable import ReaderUI
import Testing
import TestSupport
import TextLayout

/// A chapter is a contents entry, not a file (#29 item 7): The Waste Land is one file of six
/// sections, and `]`, the status line and search labels go by those sections.
@MainActor
@Suite struct ContentsSectionsTests {
    static let sections = ["I. THE BURIAL OF THE DEAD", "II. A GAME OF CHESS", "III. THE FIRE SERMON",
                           "IV. DEATH BY WATER", "V. WHAT THE THUNDER SAID", "NOTES ON \"THE WASTE LAND\""]

    /// The Waste Land with its one file shown whole.
    static func wasteLand() async throws -> BookController {
        let book = try await BookControllerTests.openBook(Fixtures.sample("epub/idpf-wasteland.epub"))
        await book.loadChapter(0, at: .start) { _, _ in }?.value
        book.contents = TableOfContentsIndex(book.publication.tableOfContents)
        return book
    }

    /// Each `]` from the start reaches the next section, whose heading is then the page's top
    /// line and the status line's title; past the last one there is nowhere to go.
    @Test func nextSectionWalksTheSectionsOfOneFile() async throws {
        let book = try await Self.wasteLand()
        defer { book.close() }
        #expect(book.publication.readingOrder.count == 1)
        var titles: [String] = []
        while let stop = book.sections.step(forward: true, count: nil, chapter: 0, place: book.state.top,
                                            positionOf: book.lineOfEntry) {
            #expect(stop.chapter == 0)
            let entry = book.tocEntries[stop.entry]
            book.state.move(to: .fragment(try #require(entry.fragment)))
            titles.append(book.chapterTitle)
            let top = book.state.layout!.lines[book.state.top].text
            #expect(top.contains(entry.title.prefix(8)), "\(top)")
            if titles.count > 10 { break }
        }
        #expect(titles == Self.sections)
        #expect(book.sections.step(forward: true, count: nil, chapter: 0, place: book.state.top, positionOf: book.lineOfEntry) == nil)
    }

    /// `[` inside a section goes to its start, at its start to the section before; a count
    /// moves that many sections.
    @Test func previousSectionGoesToTheStartThenBack() async throws {
        let book = try await Self.wasteLand()
        defer { book.close() }
        book.state.move(to: .fragment("ch3"))
        let heading = book.state.top
        _ = book.state.perform(.pageDown)
        #expect(book.chapterTitle == Self.sections[2])
        let start = try #require(book.sections.step(forward: false, count: nil, chapter: 0, place: book.state.top,
                                                    positionOf: book.lineOfEntry))
        #expect(book.tocEntries[start.entry].title == Self.sections[2])
        #expect(start.position == heading)
        let before = try #require(book.sections.step(forward: false, count: nil, chapter: 0, place: heading,
                                                     positionOf: book.lineOfEntry))
        #expect(book.tocEntries[before.entry].title == Self.sections[1])
        let twoOn = try #require(book.sections.step(forward: true, count: 2, chapter: 0, place: heading,
                                                    positionOf: book.lineOfEntry))
        #expect(book.tocEntries[twoOn.entry].title == Self.sections[4])
    }

    /// A search match is named by the section it is in, in another chapter too (converted for
    /// the purpose), not by the first entry of its file.
    @Test func aMatchIsLabelledWithItsSection() async throws {
        let book = try await BookControllerTests.openBook(Fixtures.sample("epub/idpf-wasteland.epub"))
        defer { book.close() }
        book.contents = TableOfContentsIndex(book.publication.tableOfContents)
        let text = try #require(book.source.load(0)).plainText
        let tiresias = try #require(text.range(of: "I Tiresias"))
        let offset = text.distance(from: text.startIndex, to: tiresias.lowerBound)
        #expect(book.needsEntryOffsets(0))
        await book.loadEntryOffsets([0])
        #expect(book.placeLabel(chapter: 0, offset: offset) == Self.sections[2])
        let notes = try #require(text.range(of: "Tiresias, although a mere spectator"))
        #expect(book.placeLabel(chapter: 0, offset: text.distance(from: text.startIndex, to: notes.lowerBound)) == Self.sections[5])
        #expect(book.placeLabel(chapter: 0, offset: 0) == Self.sections[0])
    }

    /// A PDF's place is a page: `p. N` (after its outline entry), never `ch. N`.
    @Test func aPDFPlaceIsAPage() async throws {
        let book = try await BookControllerTests.openBook(Fixtures.sample("pdf/pypdf-pdflatex-4-pages.pdf"))
        defer { book.close() }
        #expect(book.source.isPaged)
        #expect(book.placeLabel(chapter: 2, offset: 0) == "p. 3")
        let outlined = try await BookControllerTests.openBook(Fixtures.sample("pdf/pypdf-pdflatex-outline.pdf"))
        defer { outlined.close() }
        // Its outline's first entries are on page 2.
        #expect(outlined.placeLabel(chapter: 0, offset: 0) == "p. 1")
        let label = outlined.placeLabel(chapter: 1, offset: 0)
        #expect(label.hasSuffix(", p. 2") && !label.contains("ch."), "\(label)")
    }
}
