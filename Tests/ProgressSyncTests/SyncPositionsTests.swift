import Foundation
import ProgressSync
import Shared
import Streamer
import Testing
import TestSupport

/// Places on the wire: page numbers for PDF and comics, KOReader XPointers for reflowable
/// books, and the percentage when a pointer does not resolve.
@Suite struct SyncPositionsTests {
    static func open(_ name: String) async throws -> Publication {
        let asset = try AssetRetriever().retrieve(path: Fixtures.repositoryRoot + "/Samples/" + name)
        return try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
    }

    static func place(_ progress: String, _ percentage: Double) -> KosyncPlace {
        KosyncPlace(document: "d", progress: progress, percentage: percentage, device: "kobo", deviceID: "K")
    }

    @Test func comicPagesAreNumbers() async throws {
        let comic = try await Self.open("derived-page-blanche-excerpt.cbz")
        defer { comic.close() }
        let order = comic.readingOrder
        try #require(order.count >= 3)
        let third = Locator(href: order[2].href, mediaType: order[2].mediaType)
        #expect(SyncPositions.outgoing(third, progress: nil, in: comic).progress == "3")
        let back = SyncPositions.incoming(Self.place("3", 0.2), in: comic)
        #expect(back.locator.href == order[2].href && back.how == .page(3))
        // Past the last page: the last page.
        #expect(SyncPositions.incoming(Self.place("999", 1), in: comic).locator.href == order[order.count - 1].href)
    }

    @Test func pdfPagesAreNumbers() async throws {
        let pdf = try await Self.open("pypdf-pdflatex-outline.pdf")
        defer { pdf.close() }
        let pages = try #require(pdf.pageTextService?.pageCount)
        try #require(pages >= 2)
        let href = Href.removingFragment(pdf.readingOrder[0].href)
        let second = Locator(href: href + "#page=2", mediaType: nil)
        #expect(SyncPositions.outgoing(second, progress: 0.5, in: pdf) == .init(progress: "2", percentage: 0.5))
        let back = SyncPositions.incoming(Self.place("2", 0.5), in: pdf)
        #expect(back.locator.href == href + "#page=2" && back.how == .page(2))
    }

    /// Lectern's XPointer for a place, resolved back, lands on that place (within the white
    /// space and generated text an XPointer cannot name), for every chapter of two books.
    @Test(arguments: ["idpf-wasteland.epub", "idpf-childrens-literature.epub"])
    func reflowablePlacesRoundTrip(_ name: String) async throws {
        let book = try await Self.open(name)
        defer { book.close() }
        let order = book.readingOrder
        for (index, link) in order.enumerated() {
            var results: [(step: Int, pointer: String, moved: Double)] = []
            // Five places a chapter: each costs two conversions of the chapter (out and back).
            for step in 0..<5 {
                var locator = Locator(href: link.href, mediaType: link.mediaType)
                locator.locations.progression = Double(step) / 5
                let out = SyncPositions.outgoing(locator, progress: 0.3, in: book)
                #expect(out.progress.hasPrefix(order.count == 1 ? "/body/DocFragment/body" : "/body/DocFragment[\(index + 1)]/body"))
                let back = SyncPositions.incoming(Self.place(out.progress, 0.3), in: book)
                #expect(back.how == .xpointer, "\(name) \(out.progress)")
                #expect(back.locator.href == link.href)
                // Resolved back, the pointer is written the same: one place, one XPointer.
                #expect(back.xpointer == out.progress)
                results.append((step, out.progress, (back.locator.locations.progression ?? -1) - Double(step) / 5))
            }
            // A chapter with no text of the book (a cover: only generated "[image: …]") has one
            // XPointer for every place; elsewhere the place comes back where it was, or at the
            // next character of the book's text (white space and generated text have none).
            guard Set(results.map(\.pointer)).count > 1 else { continue }
            for result in results {
                #expect(result.moved > -0.001 && result.moved < 0.02,
                        "\(name) chapter \(index) at \(result.step): \(result.pointer) moved \(result.moved)")
            }
        }
    }

    @Test func anUnresolvablePointerFallsBackToThePercentage() async throws {
        let book = try await Self.open("idpf-wasteland.epub")
        defer { book.close() }
        for progress in ["/body/DocFragment[9]/body/p[3]/text().4", "/body/DocFragment/body/blockquote[40]", "", "42"] {
            let back = SyncPositions.incoming(Self.place(progress, 0.5), in: book)
            guard case .percentage = back.how else { Issue.record("\(progress) resolved"); continue }
            #expect(abs((back.locator.locations.progression ?? 0) - 0.5) < 0.000_1)
            #expect(back.xpointer?.hasPrefix("/body/DocFragment/body/") == true)
        }
    }
}
