import Foundation
import Shared
@testable import Streamer
import Testing
import TestSupport

/// #28: the EPUB parser checks the package against the ZIP archive's directory, not against a
/// link made for each of its entries (thousands in a long book, before the first page): the
/// archive fetcher makes its links only when asked, and the checks warn as before.
@Suite struct EPUBArchiveListingTests {
    static func book() throws -> String {
        let path = Fixtures.temporaryDirectory("epub-listing") + "/listing.epub"
        let manifest = """
        <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
        <item id="gone" href="gone.xhtml" media-type="application/xhtml+xml"/>
        <item id="img" href="missing.png" media-type="image/png"/>
        """
        try ZipBuilder.write([
            .init("META-INF/container.xml", EPUBTestSupport.container("OPS/package.opf")),
            .init("mimetype", "application/epub+zip", compression: .deflated),
            .init("OPS/package.opf", EPUBTestSupport.opf(manifest: manifest, spine: "<itemref idref=\"c1\"/><itemref idref=\"gone\"/>")),
            .init("OPS/c1.xhtml", EPUBTestSupport.xhtml),
        ], to: path)
        return path
    }

    static func parse(_ path: String, wrap: (ArchiveFetcher) -> any Fetcher) throws -> (ArchiveFetcher, PublicationBuilder, [String]) {
        let archive = try ArchiveFetcher(path: path)
        let asset = Asset(name: "listing.epub", location: path, format: Format(kind: .epub), fetcher: archive)
        let logger = ListWarningLogger()
        let builder = try #require(try EPUBParser().parse(asset: asset, fetcher: wrap(archive), warnings: logger))
        return (archive, builder, logger.warnings.map { "\($0.href ?? ""): \($0.message)" })
    }

    @Test func parsingMakesNoLinkPerEntryAndWarnsAsTheLinksDo() throws {
        let path = try Self.book()
        let (archive, builder, warnings) = try Self.parse(path) { $0 }
        #expect(!archive.hasListedLinks, "the parser made a link for every entry of the archive")
        #expect(builder.manifest.readingOrder.map(\.href) == ["OPS/c1.xhtml", "OPS/gone.xhtml"])
        #expect(!builder.manifest.resources.contains { $0.href == "OPS/missing.png" })
        #expect(warnings.contains { $0.contains("`mimetype` is not the first entry") })
        #expect(warnings.contains { $0.hasPrefix("OPS/gone.xhtml: declared in the spine but missing") })
        #expect(warnings.contains { $0.hasPrefix("OPS/missing.png: declared in the manifest but missing") })
        // A wrapped fetcher is checked through its links: the same warnings, the same book.
        let (_, wrapped, wrappedWarnings) = try Self.parse(path) { TransformingFetcher($0) { $0 } }
        #expect(wrappedWarnings == warnings)
        #expect(wrapped.manifest == builder.manifest)
        #expect(archive.links.map(\.href) == ["META-INF/container.xml", "mimetype", "OPS/package.opf", "OPS/c1.xhtml"])
    }
}
