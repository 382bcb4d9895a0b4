import Bookshelf
import Shared
import Streamer
@testable import ReaderUI
import Testing
import TestSupport
import TextLayout

/// The open book owns its tasks: replacing one cancels the previous, closing the book cancels
/// all, and what a cancelled task computed is never applied.
@MainActor
@Suite struct BookControllerTests {
    /// A task held on a continuation until the test lets it go.
    final class Gate: Sendable {
        let stream: AsyncStream<Int>
        let continuation: AsyncStream<Int>.Continuation
        init() { (stream, continuation) = AsyncStream.makeStream(of: Int.self) }
        func wait() async -> Int { for await value in stream { return value }; return -1 }
    }

    @Test func closingCancelsABlockedTaskAndDropsItsResult() async {
        let tasks = BookTasks()
        let gate = Gate()
        var applied: [Int] = []
        let task = tasks.start(.chapter, computing: { await gate.wait() }, then: { applied.append($0) })
        #expect(tasks.count == 1)
        tasks.cancelAll()
        gate.continuation.yield(7)
        await task?.value
        #expect(applied.isEmpty)
        #expect(tasks.count == 0)
        // Nothing starts once closed.
        #expect(tasks.start(.chapter, computing: { 1 }, then: { applied.append($0) }) == nil)
        #expect(applied.isEmpty)
    }

    @Test func aNewTaskOfAKindReplacesThePreviousOneOnly() async {
        let tasks = BookTasks()
        let first = Gate(), second = Gate(), picture = Gate()
        var applied: [String] = []
        let replaced = tasks.start(.search, computing: { await first.wait() }, then: { applied.append("first \($0)") })
        let unkeyed = tasks.start(nil, computing: { await picture.wait() }, then: { applied.append("picture \($0)") })
        let current = tasks.start(.search, computing: { await second.wait() }, then: { applied.append("second \($0)") })
        first.continuation.yield(1)
        await replaced?.value
        #expect(applied.isEmpty)
        second.continuation.yield(2)
        picture.continuation.yield(3)
        await current?.value
        await unkeyed?.value
        #expect(applied.sorted() == ["picture 3", "second 2"])
        // Finished tasks are forgotten: the bag does not grow with every picture decoded.
        #expect(tasks.count == 0)
    }

    /// A real book: the chapter loaded after the book closed is never shown.
    @Test func aChapterLoadingWhenTheBookClosesIsNeverShown() async throws {
        let book = try await Self.openBook(Fixtures.sample("epub/idpf-moby-dick.epub"))
        var shown = 0
        let loading = book.loadChapter(3, at: .start) { _, _ in shown += 1 }
        #expect(loading != nil && book.loadingChapter == 3)
        book.close()
        await loading?.value
        #expect(shown == 0)
        #expect(book.document == nil && book.state.layout == nil)
        #expect(book.loadChapter(3, at: .start) { _, _ in shown += 1 } == nil)
        #expect(book.tasks.count == 0)
    }

    @Test func aChapterLoadedWhileTheBookIsOpenIsShown() async throws {
        let book = try await Self.openBook(Fixtures.sample("epub/idpf-moby-dick.epub"))
        defer { book.close() }
        var shown: [Int] = []
        let loading = book.loadChapter(3, at: .start) { book, arrival in if arrival != .firstPart { shown.append(book.state.chapter) } }
        await loading?.value
        #expect(shown == [3])
        #expect(book.loadingChapter == nil && book.document != nil && book.state.layout != nil)
    }

    /// A newer chapter request wins over one still loading.
    @Test func aNewerChapterRequestReplacesTheOneLoading() async throws {
        let book = try await Self.openBook(Fixtures.sample("epub/idpf-moby-dick.epub"))
        defer { book.close() }
        var shown: [Int] = []
        let older = book.loadChapter(3, at: .start) { book, arrival in if arrival != .firstPart { shown.append(book.state.chapter) } }
        let newer = book.loadChapter(5, at: .start) { book, arrival in if arrival != .firstPart { shown.append(book.state.chapter) } }
        await older?.value
        await newer?.value
        #expect(shown == [5])
        #expect(book.state.chapter == 5)
    }

    /// A chapter long enough to be shown from its first part (over ``ContentDocumentLoader/firstPartMinimumBytes``).
    static func longChapterBook() throws -> String {
        let path = Fixtures.temporaryDirectory("book-controller") + "/long-chapter.epub"
        let paragraphs = (1...5_000).map { "<p>Paragraph \($0) of a long chapter, with words enough to fill a line or two.</p>" }
        let body = "<h1>Long</h1>" + paragraphs.joined()
        #expect(body.utf8.count > ContentDocumentLoader.firstPartMinimumBytes)
        try TestEPUBs.write(title: "Long chapter", body: body, to: path)
        return path
    }

    /// A long chapter shows its first part, then the whole replaces it in the same task.
    @Test func aLongChapterShowsItsFirstPartThenTheWhole() async throws {
        let book = try await Self.openBook(try Self.longChapterBook())
        defer { book.close() }
        var arrivals: [BookController.ChapterArrival] = []
        var partLength = 0
        let loading = book.loadChapter(0, at: .start) { book, arrival in
            arrivals.append(arrival)
            if arrival == .firstPart {
                partLength = book.document?.length ?? 0
                #expect(book.partialChapter == 0 && book.loadingChapter == 0)
            }
        }
        await loading?.value
        #expect(arrivals == [.firstPart, .whole(carriedOut: false)])
        #expect(book.partialChapter == nil && book.loadingChapter == nil)
        #expect(partLength > 0 && (book.document?.length ?? 0) > partLength)
    }

    /// A page down past the first part waits, and is carried out in the chapter once it is whole.
    @Test func aPageDownPastTheFirstPartWaitsForTheWhole() async throws {
        let book = try await Self.openBook(try Self.longChapterBook())
        defer { book.close() }
        var arrivals: [BookController.ChapterArrival] = []
        var waited = false
        let loading = book.loadChapter(0, at: .start) { book, arrival in
            arrivals.append(arrival)
            if arrival == .firstPart { waited = book.waitsForRest(beforeShowing: 1, at: .start) }
        }
        await loading?.value
        #expect(waited)
        #expect(arrivals == [.firstPart, .whole(carriedOut: true)])
        #expect(book.state.chapter == 0 && book.state.topOffset > 0 && book.movementWaiting == nil)
        // Once whole, the next chapter is not waited for.
        #expect(!book.waitsForRest(beforeShowing: 1, at: .start))
    }

    /// A place past the first part (a search match near the chapter's end) is shown when the
    /// whole chapter arrives, not lost to the first part's last page.
    @Test func aRevealPastTheFirstPartIsShownWhenTheWholeArrives() async throws {
        let book = try await Self.openBook(try Self.longChapterBook())
        defer { book.close() }
        var partLength = 0
        let loading = book.loadChapter(0, at: .start) { book, arrival in
            guard arrival == .firstPart else { return }
            partLength = book.document?.length ?? 0
            book.reveal(offset: partLength + 100_000)
            #expect(book.revealWaiting == partLength + 100_000)
        }
        await loading?.value
        #expect(partLength > 0)
        #expect(book.revealWaiting == nil)
        let line = book.state.layout?.lineIndex(containing: partLength + 100_000)
        #expect(line.map { book.state.visibleLines.contains($0) } == true, "top offset \(book.state.topOffset), first part \(partLength)")
    }

    /// A long chapter opened at an offset (a search match in another chapter) is shown from a
    /// first part that reaches past it, at that place, which stays in view when the whole arrives.
    @Test func aChapterOpenedAtAnOffsetShowsItsFirstPartThere() async throws {
        let book = try await Self.openBook(try Self.longChapterBook())
        defer { book.close() }
        let place = 120_000
        var arrivals: [BookController.ChapterArrival] = []
        var partLength = 0, partTop = -1
        let loading = book.loadChapter(0, at: .offset(place)) { book, arrival in
            arrivals.append(arrival)
            guard arrival == .firstPart else { return }
            partLength = book.document?.length ?? 0
            partTop = book.state.top
            let line = book.state.layout?.lineIndex(containing: place)
            #expect(line.map { book.state.visibleLines.contains($0) } == true, "top offset \(book.state.topOffset)")
        }
        await loading?.value
        #expect(arrivals == [.firstPart, .whole(carriedOut: false)])
        #expect(partLength > place && (book.document?.length ?? 0) > partLength)
        #expect(book.state.top == partTop && book.state.laidOutPart == .whole)
    }

    /// Where the library knows a chapter's length from an earlier count, a saved position in
    /// it is shown from a first part, on the page saved, with percentages through the whole;
    /// without that length the whole chapter is waited for.
    @Test func aSavedPlaceInACountedChapterIsShownFromAFirstPart() async throws {
        let path = try Self.longChapterBook()
        let first = try await Self.openBook(path)
        await first.loadChapter(0, at: .offset(200_000)) { _, _ in }?.value
        let saved = try #require(first.state.currentLocator)
        let savedTop = first.state.topOffset, length = try #require(first.document?.length)
        let savedProgression = first.state.chapterProgression
        first.close()

        let uncounted = try await Self.openBook(path)
        var uncountedArrivals: [BookController.ChapterArrival] = []
        await uncounted.loadChapter(0, at: .locator(saved)) { _, arrival in uncountedArrivals.append(arrival) }?.value
        #expect(uncountedArrivals == [.whole(carriedOut: false)])
        #expect(uncounted.state.topOffset == savedTop)
        uncounted.close()

        let book = try await Self.openBook(path)
        defer { book.close() }
        book.state.chapterLengths = [length]
        var arrivals: [BookController.ChapterArrival] = []
        var partLength = 0, partTopOffset = -1
        var partProgression = -1.0, partLocator: Locator?
        await book.loadChapter(0, at: .locator(saved)) { book, arrival in
            arrivals.append(arrival)
            guard arrival == .firstPart else { return }
            partLength = book.document?.length ?? 0
            partTopOffset = book.state.topOffset
            partProgression = book.state.chapterProgression
            partLocator = book.state.currentLocator
        }?.value
        #expect(arrivals == [.firstPart, .whole(carriedOut: false)])
        #expect(partLength > savedTop && partLength < length)
        #expect(partTopOffset == savedTop)
        #expect(abs(partProgression - savedProgression) < 0.000_001)
        #expect(partLocator?.locations.progression.map { abs($0 - savedProgression) < 0.000_001 } == true)
        #expect(book.state.topOffset == savedTop && book.state.bookProgression.map { abs($0 - savedProgression) < 0.000_001 } == true)
    }

    /// A jump the first part cannot place (to the middle of a chapter of unknown length) is
    /// carried out when the whole arrives, not lost to the part.
    @Test func aJumpPastTheFirstPartIsCarriedOutWhenTheWholeArrives() async throws {
        let book = try await Self.openBook(try Self.longChapterBook())
        defer { book.close() }
        var arrivals: [BookController.ChapterArrival] = []
        await book.loadChapter(0, at: .start) { book, arrival in
            arrivals.append(arrival)
            guard arrival == .firstPart else { return }
            let effect = book.state.go(toPercent: 50)
            #expect(effect == .awaitWhole(.progression(0.5)))
            if case .awaitWhole(let anchor) = effect { book.awaitWhole(anchor) }
            #expect(book.state.top == 0)
        }?.value
        #expect(arrivals == [.firstPart, .whole(carriedOut: true)])
        #expect(abs(book.state.chapterProgression - 0.5) < 0.01 && book.anchorWaiting == nil)
    }

    /// A window resized while the first part is shown: the whole chapter is shown at the new width.
    @Test func aResizeDuringTheFirstPartLaysTheWholeOutAtTheNewWidth() async throws {
        let book = try await Self.openBook(try Self.longChapterBook())
        defer { book.close() }
        let narrower = LayoutOptions(width: 40)
        await book.loadChapter(0, at: .start) { book, arrival in
            if arrival == .firstPart { book.layOutAgain(with: narrower) {} }
        }?.value
        #expect(book.state.laidOutPart == .whole && book.state.layout?.options == narrower)
        #expect((book.state.layout?.document.length ?? 0) == (book.document?.length ?? -1))
    }

    /// Closing the book while its first part is shown drops the rest.
    @Test func closingAfterTheFirstPartDropsTheRest() async throws {
        let book = try await Self.openBook(try Self.longChapterBook())
        var arrivals: [BookController.ChapterArrival] = []
        let loading = book.loadChapter(0, at: .start) { book, arrival in
            arrivals.append(arrival)
            if arrival == .firstPart { book.close() }
        }
        await loading?.value
        #expect(arrivals == [.firstPart])
        #expect(book.partialChapter == 0 && book.tasks.count == 0)
    }

    static func openBook(_ path: String) async throws -> BookController {
        let asset = try AssetRetriever().retrieve(path: path)
        let publication = try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
        let opened = OpenedPublication(publication: publication, format: "EPUB", licenseID: nil)
        let column = TextColumn(windowWidth: 80)
        return BookController(opened: opened, entry: nil, options: LayoutOptions(width: column.width), column: column, rows: 24)
    }
}
