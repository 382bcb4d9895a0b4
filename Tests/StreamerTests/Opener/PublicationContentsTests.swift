import Shared
import Streamer
import Testing
import TestSupport

/// What a reader offers as contents: a Web Publication that lists no `toc` but names its
/// reading-order items gets its contents from those titles (#29 item 14).
@Suite struct PublicationContentsTests {
    static func open(_ sample: String) async throws -> Publication {
        try await PublicationOpener().open(asset: try AssetRetriever().retrieve(path: Fixtures.sample(sample)), allowUserInteraction: false)
    }

    @Test func titledReadingOrderItemsAreTheContentsOfAPublicationWithout() async throws {
        let publication = try await Self.open("webpub/readium-mobydick.webpub")
        defer { publication.close() }
        #expect(publication.tableOfContents.isEmpty)
        let contents = publication.contents
        #expect(contents.count == 10)
        #expect(contents.first?.title == "Title Page")
        #expect(contents[4].title == "Chapter 1 - Loomings")
        #expect(contents.map(\.href) == publication.readingOrder.map(\.href))
    }

    @Test func aTableOfContentsIsTheContents() async throws {
        let publication = try await Self.open("epub/idpf-wasteland.epub")
        defer { publication.close() }
        #expect(!publication.tableOfContents.isEmpty)
        #expect(publication.contents == publication.tableOfContents)
    }

    @Test func untitledItemsMakeNoContents() {
        let manifest = Manifest(readingOrder: [Link(href: "a.html", title: "  "), Link(href: "b.html")])
        #expect(manifest.contents.isEmpty)
    }
}
