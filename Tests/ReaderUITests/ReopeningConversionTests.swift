import Synchronization
import Testing
@testable import ReaderUI
import Shared
import TextLayout
import TestSupport

/// Reopening a book at the place it was left in a long chapter converts, before the first page,
/// the text up to that place and three screens, not the whole chapter (issue 28): counted with
/// the loader's ``ConversionObserver``, not timed.
@MainActor
struct ReopeningConversionTests {
    /// Where the first opening leaves the book.
    enum Place: String, CaseIterable, Sendable {
        case start, middle, end

        var anchor: ReaderState.Anchor {
            switch self {
            case .start: .start
            case .middle: .progression(0.5)
            case .end: .end
            }
        }
    }

    /// Every conversion event of the loaders made while it observes.
    final class ConversionLog: Sendable {
        private let events = Mutex<[ConversionObserver.Event]>([])

        var observer: ConversionObserver { ConversionObserver { [self] event in events.withLock { $0.append(event) } } }

        var all: [ConversionObserver.Event] { events.withLock { $0 } }

        /// The offsets converted before anything was handed over: a first part's, else the whole's.
        var convertedBeforeFirstHandOver: Int? {
            switch all.first {
            case .firstPart(_, let length, _)?, .whole(_, let length, _)?: length
            case nil: nil
            }
        }

        /// The bytes of source parsed before anything was handed over.
        var bytesBeforeFirstHandOver: Int? {
            switch all.first {
            case .firstPart(_, _, let bytes)?, .whole(_, _, let bytes)?: bytes
            case nil: nil
            }
        }
    }

    /// A first opening: the book shown whole at `place`, then closed. Returns the locator saved
    /// then (as the library keeps it), the offset of the page's first character, the chapter's
    /// length and the checkpoints recorded converting it.
    static func leave(_ path: String, at place: Place) async throws
        -> (locator: Locator, top: Int, length: Int, page: [String], pageNumber: Int, checkpoints: [Int: [ChapterCheckpoint]]) {
        let book = try await BookControllerTests.openBook(path)
        defer { book.close() }
        await book.loadChapter(0, at: place.anchor) { _, _ in }?.value
        let locator = try #require(book.positionToSave?.locator)
        return (locator, book.state.topOffset, try #require(book.document?.length), pageText(book), book.state.pageInChapter.page,
                book.state.chapterCheckpoints)
    }

    /// The lines of text on the page shown.
    static func pageText(_ book: BookController) -> [String] {
        guard let layout = book.state.layout else { return [] }
        return book.state.visibleLines.map { layout.lines[$0].text }
    }

    /// What the reopening showed first and what it converted before.
    struct Reopening {
        var converted: Int
        var firstArrival: BookController.ChapterArrival
        var firstTop: Int
        var firstPagesLabel: String
        /// The page number shown on the first page (estimated in a part).
        var firstPageNumber: Int
        /// The bytes of the chapter's source parsed before the first page.
        var bytes: Int
        /// The lines of text on the first page shown.
        var firstPage: [String]
        /// The text up to the place and three screens: the most a first page may wait for.
        var allowance: Int
        var events: [ConversionObserver.Event]
    }

    /// Reopens the book at `locator`, with the chapter lengths the library holds (`stored`)
    /// and the chapters' checkpoints.
    static func reopen(_ path: String, at locator: Locator, stored: [Int]?,
                       checkpoints: [Int: [ChapterCheckpoint]] = [:]) async throws -> Reopening {
        let log = ConversionLog()
        let book = try await ConversionObserver.$current.withValue(log.observer) {
            try await BookControllerTests.openBook(path)
        }
        defer { book.close() }
        book.state.chapterLengths = stored
        book.state.chapterCheckpoints = checkpoints
        var first: (arrival: BookController.ChapterArrival, top: Int, label: String, number: Int, converted: Int?, bytes: Int?, page: [String])?
        await book.loadChapter(0, at: .locator(locator)) { book, arrival in
            if first == nil {
                first = (arrival, book.state.topOffset, book.state.chapterPagesLabel, book.state.pageInChapter.page,
                         log.convertedBeforeFirstHandOver,
                         log.bytesBeforeFirstHandOver, pageText(book))
            }
        }?.value
        let shown = try #require(first)
        // As the reader asks (BookController.loadChapter): three screens past the place; a
        // paragraph more, as the part ends at the end of a block.
        let screens = max(8_000, book.options.width * book.state.rows * 3)
        return Reopening(converted: try #require(shown.converted), firstArrival: shown.arrival, firstTop: shown.top,
                         firstPagesLabel: shown.label, firstPageNumber: shown.number, bytes: try #require(shown.bytes), firstPage: shown.page,
                         allowance: screens + 200, events: log.all)
    }

    @Test(arguments: Place.allCases)
    func aCountedChapterReopensFromAFirstPart(at place: Place) async throws {
        let path = try BookControllerTests.longChapterBook()
        let left = try await Self.leave(path, at: place)
        let reopened = try await Self.reopen(path, at: left.locator, stored: [left.length])
        // The same page, from no more than the text up to it and three screens.
        #expect(reopened.firstTop == left.top, "\(reopened.events)")
        #expect(reopened.converted <= min(left.length, left.top + reopened.allowance), "\(reopened.events)")
        // The rest was read meanwhile, once.
        #expect(reopened.events.filter { if case .whole = $0 { true } else { false } }.count == 1)
        if case .whole(_, let length, _)? = reopened.events.last { #expect(length == left.length) } else { Issue.record("\(reopened.events)") }
        if place == .end {
            // The end's page needs all the text before it: the whole, shown with its count.
            #expect(reopened.firstArrival == .whole(carriedOut: false))
        } else {
            #expect(reopened.firstArrival == .firstPart && reopened.converted < left.length, "\(reopened.events)")
            // The page count estimated from the stored length, near the count once whole.
            #expect(reopened.firstPagesLabel.hasPrefix("~"))
        }
    }

    /// Left at its start before the book was counted (the person closed it as soon as the
    /// chapter was whole): no length is stored, and none is needed to show the start.
    @Test func anUncountedChapterLeftAtItsStartReopensFromAFirstPart() async throws {
        let path = try BookControllerTests.longChapterBook()
        let left = try await Self.leave(path, at: .start)
        #expect(left.locator.locations.progression == 0)
        let reopened = try await Self.reopen(path, at: left.locator, stored: nil)
        #expect(reopened.firstArrival == .firstPart, "\(reopened.events)")
        #expect(reopened.firstTop == 0)
        #expect(reopened.converted <= reopened.allowance, "\(reopened.events)")
        #expect(reopened.firstPagesLabel == "…")
    }
}

/// What a reopening parses of a long chapter's source before its first page, wherever the
/// book was left (#28 item 1): a first part (at most what a short chapter is converted whole,
/// ``ContentDocumentLoader/firstPartMinimumBytes``), not the source up to the place; and the
/// page shown is the one left. Deep in the chapter, the part is a stretch from the checkpoint
/// recorded when the chapter was converted whole at the first opening.
@MainActor
struct ReopeningSourceBytesTests {
    /// One chapter of about 1.7 MB of XHTML: seven times the bound.
    static func book() throws -> String {
        let path = Fixtures.temporaryDirectory("reopening-bytes") + "/long-chapter.epub"
        let paragraphs = (1...20_000).map { "<p>Paragraph \($0) of a long chapter, with words enough to fill a line or two.</p>" }
        try TestEPUBs.write(title: "Long chapter", body: "<h1>Long</h1>" + paragraphs.joined(), to: path)
        return path
    }

    @Test(arguments: ReopeningConversionTests.Place.allCases)
    func aReopeningParsesAFirstPartOfTheSourceOnly(at place: ReopeningConversionTests.Place) async throws {
        let path = try Self.book()
        let left = try await ReopeningConversionTests.leave(path, at: place)
        if place != .start { #expect(left.checkpoints[0]?.isEmpty == false, "no checkpoints recorded") }
        let reopened = try await ReopeningConversionTests.reopen(path, at: left.locator, stored: [left.length],
                                                                 checkpoints: left.checkpoints)
        // Correctness first: the same text on the page.
        #expect(reopened.firstTop == left.top, "\(reopened.events)")
        #expect(!left.page.isEmpty && reopened.firstPage == left.page)
        #expect(reopened.firstArrival == .firstPart, "\(reopened.events)")
        #expect(reopened.bytes <= ContentDocumentLoader.firstPartMinimumBytes,
                "parsed \(reopened.bytes) bytes before the first page: \(reopened.events)")
        // The page number estimated near the one counted when the chapter was whole.
        #expect(abs(reopened.firstPageNumber - left.pageNumber) <= max(2, left.pageNumber / 20),
                "page \(reopened.firstPageNumber), was \(left.pageNumber)")
        // The rest was read meanwhile, once, and replaced the part.
        #expect(reopened.events.filter { if case .whole = $0 { true } else { false } }.count == 1)
    }

    /// Above the stretch shown, a page up waits for the whole chapter, then shows the page
    /// before the one shown, which stays meanwhile (not the previous chapter, not the start).
    @Test func aPageUpAboveTheStretchWaitsForTheWholeChapter() async throws {
        let path = try Self.book()
        let left = try await ReopeningConversionTests.leave(path, at: .middle)
        let book = try await BookControllerTests.openBook(path)
        defer { book.close() }
        book.state.chapterLengths = [left.length]
        book.state.chapterCheckpoints = left.checkpoints
        var arrivals: [BookController.ChapterArrival] = []
        var stretchStart: Int?
        await book.loadChapter(0, at: .locator(left.locator)) { book, arrival in
            arrivals.append(arrival)
            guard arrival == .firstPart else { return }
            stretchStart = book.state.partStart
            while book.state.top > 0 { _ = book.state.perform(.pageUp) }
            let effect = book.state.perform(.pageUp)
            #expect(effect == .awaitRest(.pageUp, count: 1))
            #expect(book.awaitRest(.pageUp, count: 1))
        }?.value
        #expect(arrivals == [.firstPart, .whole(carriedOut: true)])
        let start = try #require(stretchStart)
        #expect(start > 0)
        #expect(book.state.laidOutPart == .whole && book.state.partStart == 0)
        #expect(book.state.topOffset < start && book.state.topOffset > 0)
    }
}
