import Bookshelf
import Foundation
import Shared
import Streamer
import Synchronization
import Testing
@testable import ReaderUI
import TestSupport
import TextLayout

/// What a first opening and a reopening READ of a long chapter's resource before its first page
/// (#28 item 1): a prefix at its start (read by range, far less than the chapter), the head and
/// the stretch from a checkpoint deep inside, never the whole resource. Counted by a resource
/// wrapped around the book's, beside the loader's ``ConversionObserver`` (whose first part tells
/// the bytes read).
@MainActor
struct ReopeningRangedReadsTests {
    /// The reads of the chapter's resource and the conversion events, in their order.
    final class Log: Sendable {
        enum Entry: Sendable {
            case read(href: String, Range<UInt64>?, got: Int)
            case event(ConversionObserver.Event)
        }

        private let entries = Mutex<[Entry]>([])

        func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }

        var all: [Entry] { entries.withLock { $0 } }

        var observer: ConversionObserver { ConversionObserver { [self] in append(.event($0)) } }

        /// The reads of the chapter before the first conversion event, and that event.
        var beforeFirstHandOver: (reads: [(range: Range<UInt64>?, got: Int)], event: ConversionObserver.Event?) {
            var reads: [(Range<UInt64>?, Int)] = []
            for entry in all {
                switch entry {
                case .read(let href, let range, let got): if href.hasSuffix("c1.xhtml") { reads.append((range, got)) }
                case .event(let event): return (reads, event)
                }
            }
            return (reads, nil)
        }
    }

    /// A resource that logs what is read of it.
    final class CountingResource: Resource {
        let base: any Resource
        let log: Log

        init(_ base: any Resource, log: Log) {
            self.base = base
            self.log = log
        }

        var link: Link { base.link }
        var length: ResourceResult<UInt64> { base.length }

        func read(range: Range<UInt64>?) -> ResourceResult<Data> {
            let result = base.read(range: range)
            log.append(.read(href: base.link.href, range, got: (try? result.get())?.count ?? 0))
            return result
        }

        func close() { base.close() }
    }

    /// The book at `path` opened with its resources counted in `log`, its loads observed too.
    static func openCounted(_ path: String, log: Log) async throws -> BookController {
        let asset = try AssetRetriever().retrieve(path: path)
        let publication = try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
        let counted = publication.copy { _, fetcher, _ in
            fetcher = TransformingFetcher(fetcher) { CountingResource($0, log: log) }
        }
        let opened = OpenedPublication(publication: counted, format: "EPUB", licenseID: nil)
        let column = TextColumn(windowWidth: 80)
        return ConversionObserver.$current.withValue(log.observer) {
            BookController(opened: opened, entry: nil, options: LayoutOptions(width: column.width), column: column, rows: 24)
        }
    }

    /// The chapter's source length in the book (the 1.7 MB chapter of ReopeningSourceBytesTests).
    static func chapterBytes(_ path: String) throws -> Int {
        try Command.run(["unzip", "-p", path, "OPS/c1.xhtml"]).count
    }

    /// Loads chapter 0 of the counted book at `anchor`; returns what was read before the first
    /// hand-over, the page shown first and the arrivals.
    static func load(_ book: BookController, log: Log, at anchor: ReaderState.Anchor) async
        -> (reads: [(range: Range<UInt64>?, got: Int)], event: ConversionObserver.Event?, page: [String], arrivals: [BookController.ChapterArrival]) {
        var first: (reads: [(range: Range<UInt64>?, got: Int)], event: ConversionObserver.Event?, page: [String])?
        var arrivals: [BookController.ChapterArrival] = []
        await book.loadChapter(0, at: anchor) { book, arrival in
            arrivals.append(arrival)
            if first == nil {
                let before = log.beforeFirstHandOver
                first = (before.reads, before.event, ReopeningConversionTests.pageText(book))
            }
        }?.value
        return (first?.reads ?? [], first?.event, first?.page ?? [], arrivals)
    }

    /// Only ranged reads, adding up to the bytes the first part says it read, at most `bound`.
    static func expectRangedReads(_ reads: [(range: Range<UInt64>?, got: Int)], event: ConversionObserver.Event?, bound: Int,
                                  _ name: String) {
        let read = reads.map(\.got).reduce(0, +)
        #expect(!reads.isEmpty && reads.allSatisfy { $0.range != nil }, "\(name): \(reads)")
        #expect(read <= bound, "\(name): \(read) bytes read before the first page (\(reads))")
        guard case .firstPart(_, _, let bytes)? = event else {
            Issue.record("\(name): first told \(String(describing: event))")
            return
        }
        #expect(bytes == read, "\(name): the first part says \(bytes) bytes, \(read) were read")
    }

    /// A first opening reads a prefix of the chapter before its first page, then the whole once.
    @Test func aFirstOpeningReadsAPrefixBeforeItsFirstPage() async throws {
        let path = try ReopeningSourceBytesTests.book()
        let total = try Self.chapterBytes(path)
        let log = Log()
        let book = try await Self.openCounted(path, log: log)
        defer { book.close() }
        let loaded = await Self.load(book, log: log, at: .start)
        #expect(loaded.arrivals == [.firstPart, .whole(carriedOut: false)])
        Self.expectRangedReads(loaded.reads, event: loaded.event, bound: min(ContentDocumentLoader.firstPartMinimumBytes, total / 4), "first opening")
        let whole = log.all.filter { if case .read(let href, nil, _) = $0 { href.hasSuffix("c1.xhtml") } else { false } }
        #expect(whole.count == 1, "\(log.all.count) entries")
    }

    /// Reopened with its stored length and checkpoints: at its start a prefix, in the middle
    /// and at the end the head and the stretch around the place; the page left is shown.
    @Test(arguments: ReopeningConversionTests.Place.allCases)
    func aReopeningReadsAPrefixOrAStretchBeforeItsFirstPage(at place: ReopeningConversionTests.Place) async throws {
        let path = try ReopeningSourceBytesTests.book()
        let total = try Self.chapterBytes(path)
        let left = try await ReopeningConversionTests.leave(path, at: place)
        let log = Log()
        let book = try await Self.openCounted(path, log: log)
        defer { book.close() }
        book.state.chapterLengths = [left.length]
        book.state.chapterCheckpoints = left.checkpoints
        let loaded = await Self.load(book, log: log, at: .locator(left.locator))
        #expect(loaded.page == left.page && !left.page.isEmpty)
        #expect(loaded.arrivals.first == .firstPart)
        Self.expectRangedReads(loaded.reads, event: loaded.event, bound: min(ContentDocumentLoader.firstPartMinimumBytes, total / 4), "\(place)")
        if place != .start, let first = loaded.reads.first?.range, let checkpoint = left.checkpoints[0]?.first {
            // The head first: up to the end of the body's start tag.
            #expect(first == 0..<UInt64(checkpoint.bodyStart))
        }
    }
}
