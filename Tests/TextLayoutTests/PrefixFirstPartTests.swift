import Foundation
import Shared
import Synchronization
import Testing
import TestSupport
@testable import TextLayout

/// A long chapter's first part is converted from a prefix of its resource, read by range, not
/// from the whole resource (#28): the part is the one the whole conversion tells (same blocks,
/// offsets, links, anchors), the bytes read before it are a prefix far shorter than the
/// chapter, and the whole document and its checkpoints are those of a whole conversion.
@Suite struct PrefixFirstPartTests {
    /// The reads of a resource and the conversion events, in their order.
    final class Log: Sendable {
        enum Entry: Sendable {
            case read(Range<UInt64>?, got: Int)
            case event(ConversionObserver.Event)
        }

        private let entries = Mutex<[Entry]>([])

        func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }

        var all: [Entry] { entries.withLock { $0 } }

        var observer: ConversionObserver { ConversionObserver { [self] in append(.event($0)) } }

        /// The reads before the first conversion event.
        var readsBeforeFirstEvent: [(range: Range<UInt64>?, got: Int)] {
            var reads: [(Range<UInt64>?, Int)] = []
            for entry in all {
                switch entry {
                case .read(let range, let got): reads.append((range, got))
                case .event: return reads
                }
            }
            return reads
        }

        var firstEvent: ConversionObserver.Event? {
            all.lazy.compactMap { if case .event(let event) = $0 { event } else { nil } }.first
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
            log.append(.read(range, got: (try? result.get())?.count ?? 0))
            return result
        }

        func close() { base.close() }
    }

    /// A publication of one chapter, `bytes` of XHTML, whose reads go to `log`.
    static func publication(_ bytes: [UInt8], log: Log) -> (Publication, Link) {
        let link = Link(href: "OEBPS/ch.xhtml", mediaType: MediaType("application/xhtml+xml"))
        let fetcher = TransformingFetcher(MemoryFetcher([(path: "OEBPS/ch.xhtml", bytes: Data(bytes))])) { CountingResource($0, log: log) }
        return (Publication(manifest: Manifest(metadata: Metadata(title: "Long"), readingOrder: [link]), fetcher: fetcher), link)
    }

    /// A chapter of about `minimumBytes` in windows-1252 declared by `<meta charset>`, with
    /// letters outside ASCII (é as the single byte E9).
    static func windows1252Chapter(minimumBytes: Int) -> [UInt8] {
        var html = Array("<html><head><meta charset=\"windows-1252\"/><title>Caf\u{E9}</title></head><body>\n".utf8)
        var index = 0
        while html.count < minimumBytes {
            index += 1
            html += Array("<p id=\"p\(index)\">".utf8) + Array(String(repeating: "Caf\u{E9} \(index) \u{2014} na\u{EF}ve ", count: 12)
                .unicodeScalars.map { $0 == "\u{2014}" ? 0x97 : UInt8($0.value) }) + Array("</p>\n".utf8)
        }
        return html + Array("</body></html>".utf8)
    }

    /// A chapter whose first paragraph is `firstBlockBytes` long, followed by `minimumBytes` more.
    static func longFirstBlockChapter(firstBlockBytes: Int, minimumBytes: Int) -> [UInt8] {
        let words = String(repeating: "A first paragraph longer than a prefix. ", count: firstBlockBytes / 40)
        return Array((ChapterCheckpointTests.chapter(minimumBytes: minimumBytes)
            .replacingOccurrences(of: "<body class=\"c\">\n", with: "<body class=\"c\">\n<p id=\"first\">" + words + "</p>\n")).utf8)
    }

    static let firstPartLength = 5_000

    /// Loads `bytes` as a reader's first opening does, checking the first part against the
    /// whole conversion's and the bytes read before it; returns the bytes read before it.
    @discardableResult
    static func expectPrefixFirstPart(_ bytes: [UInt8], _ name: String, recordsCheckpoints: Bool? = true,
                                      maximumRead: Int? = nil) throws -> Int {
        let log = Log()
        let (publication, link) = publication(bytes, log: log)
        let loader = ContentDocumentLoader(publication: publication, options: ContentParseOptions(), observer: log.observer)
        var parts: [TextDocument] = []
        var recorded: [ChapterCheckpoint]?
        let whole = try loader.load(link, firstPartLength: firstPartLength, recordingCheckpoints: { recorded = $0 }) { parts.append($0) }
        // What a whole conversion gives, and the first part it tells.
        var expectedParts: [TextDocument] = []
        let expectedWhole = try ContentDocumentParser.parse(html: bytes, href: link.href, firstPartLength: firstPartLength) {
            expectedParts.append($0)
        }
        let (_, expectedCheckpoints) = try ContentDocumentParser.parse(html: bytes, href: link.href, recordingCheckpointsEvery: ChapterCheckpoint.spacing)
        let fingerprint = IncrementalParseTests().fingerprint
        #expect(parts.count == 1, "\(name): \(parts.count) first parts")
        let part = try #require(parts.first)
        #expect(fingerprint(part) == fingerprint(try #require(expectedParts.first)), "\(name): the first part")
        #expect(fingerprint(whole) == fingerprint(expectedWhole), "\(name): the whole")
        // (None in a source libxml2 converts from another encoding: its offsets are not told.)
        #expect(recorded == expectedCheckpoints && recordsCheckpoints.map { expectedCheckpoints.isEmpty != $0 } ?? true, "\(name): checkpoints")
        // Before the part: ranged reads of a prefix (at most half the chapter unless told), as the hook says.
        let reads = log.readsBeforeFirstEvent
        let read = reads.map(\.got).reduce(0, +)
        #expect(!reads.isEmpty && reads.allSatisfy { $0.range != nil }, "\(name): \(reads)")
        #expect(read <= maximumRead ?? bytes.count / 2, "\(name): \(read) of \(bytes.count) bytes read before the first part")
        guard case .firstPart(_, let length, let told)? = log.firstEvent else {
            Issue.record("\(name): \(log.all)")
            return read
        }
        #expect(length == part.length && told == read, "\(name): told \(told) bytes, read \(read)")
        return read
    }

    @Test func aGeneratedLongChapter() throws {
        let read = try Self.expectPrefixFirstPart(Array(ChapterCheckpointTests.chapter(minimumBytes: 1_700_000).utf8), "generated")
        #expect(read == ContentDocumentLoader.firstPrefixBytes)
    }

    @Test func aChapterWrappedInASection() throws {
        try Self.expectPrefixFirstPart(Array(ChapterCheckpointTests.chapter(minimumBytes: 1_700_000, wrapped: true).utf8), "wrapped")
    }

    @Test func aChapterInWindows1252() throws {
        let bytes = Self.windows1252Chapter(minimumBytes: 1_500_000)
        try Self.expectPrefixFirstPart(bytes, "windows-1252", recordsCheckpoints: false)
        // The text was decoded as declared.
        let part = try ContentDocumentParser.parse(html: bytes, href: "c.xhtml")
        #expect(part.blocks.first?.text.string.hasPrefix("Caf\u{E9} 1 \u{2014} na\u{EF}ve") == true)
    }

    /// The first block ends past the first prefix: a prefix four times longer is read.
    @Test func aFirstBlockLongerThanTheFirstPrefix() throws {
        let bytes = Self.longFirstBlockChapter(firstBlockBytes: 400_000, minimumBytes: 2_500_000)
        let read = try Self.expectPrefixFirstPart(bytes, "long first block")
        #expect(read == 4 * ContentDocumentLoader.firstPrefixBytes)
    }

    /// A real chapter of 330 KB (the children's literature sample's fourth section).
    @Test func aSampleChapterLongerThanAFirstPrefix() async throws {
        let publication = try await openSample("epub/idpf-childrens-literature.epub")
        defer { publication.close() }
        let link = try #require(publication.readingOrder.first { $0.href.hasSuffix("s04.xhtml") })
        let bytes = [UInt8](try publication.get(link).read().get())
        #expect(bytes.count > ContentDocumentLoader.firstPartMinimumBytes)
        try Self.expectPrefixFirstPart(bytes, "children's literature s04", recordsCheckpoints: nil,
                                       maximumRead: ContentDocumentLoader.firstPrefixBytes)
    }

    /// A source prepared before it is parsed (here a DOCTYPE internal subset removed) is read
    /// whole for its first part, and records no checkpoints: their offsets would be the prepared
    /// bytes', and a part is read by ranges from the resource as it is.
    @Test func aChapterWithADoctypeSubsetIsReadWholeWithoutCheckpoints() throws {
        let bytes = Array(("<!DOCTYPE html [ <!ENTITY nbsp \"&#160;\"> ]>\n" + ChapterCheckpointTests.chapter(minimumBytes: 600_000)).utf8)
        let log = Log()
        let (publication, link) = Self.publication(bytes, log: log)
        let loader = ContentDocumentLoader(publication: publication, options: ContentParseOptions(), observer: log.observer)
        var parts: [TextDocument] = []
        var recorded: [ChapterCheckpoint]?
        let whole = try loader.load(link, firstPartLength: Self.firstPartLength, recordingCheckpoints: { recorded = $0 }) { parts.append($0) }
        var expectedParts: [TextDocument] = []
        let expectedWhole = try ContentDocumentParser.parse(html: bytes, href: link.href, firstPartLength: Self.firstPartLength) {
            expectedParts.append($0)
        }
        let fingerprint = IncrementalParseTests().fingerprint
        #expect(parts.count == 1 && parts.map(fingerprint) == expectedParts.map(fingerprint))
        #expect(fingerprint(whole) == fingerprint(expectedWhole))
        #expect(!(whole.blocks.first?.text.string.contains("ENTITY") ?? true))
        #expect(recorded == [])
        #expect(log.readsBeforeFirstEvent.contains { $0.range == nil }, "\(log.readsBeforeFirstEvent)")
    }
}
