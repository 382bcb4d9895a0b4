import Bookshelf
import FoundationEssentials
import LibrarySearch
import Testing
import TestSupport

/// A part of a book that cannot be read is said in the indexing report, not indexed as empty
/// without a word.
@Suite struct UnreadablePartIndexingTests {
    /// An EPUB whose spine lists `c2.xhtml`, which the archive does not hold.
    static func writeBookMissingItsSecondChapter(to path: String) throws {
        let opf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:identifier id="id">urn:test:missing-chapter</dc:identifier>
                <dc:title>Missing Chapter</dc:title><dc:language>en</dc:language>
                <meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>
              </metadata>
              <manifest>
                <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
                <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
                <item id="c2" href="c2.xhtml" media-type="application/xhtml+xml"/>
              </manifest>
              <spine><itemref idref="c1"/><itemref idref="c2"/></spine>
            </package>
            """
        let container = """
            <?xml version="1.0"?>
            <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
              <rootfiles><rootfile full-path="OPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles>
            </container>
            """
        let nav = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Nav</title></head>
            <body><nav epub:type="toc"><ol><li><a href="c1.xhtml">One</a></li><li><a href="c2.xhtml">Two</a></li></ol></nav></body></html>
            """
        let chapter = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title></head>
            <body><p>The quartermaster counted the lanterns.</p></body></html>
            """
        try ZipBuilder.write([ZipBuilder.Entry("mimetype", "application/epub+zip", compression: .stored),
                              ZipBuilder.Entry("META-INF/container.xml", container),
                              ZipBuilder.Entry("OPS/package.opf", opf),
                              ZipBuilder.Entry("OPS/nav.xhtml", nav),
                              ZipBuilder.Entry("OPS/c1.xhtml", chapter)], to: path)
    }

    @Test func aChapterThatCannotBeReadIsReportedAndTheRestIsSearchable() async throws {
        let folder = Fixtures.temporaryDirectory("lectern-unreadable-part")
        let path = folder + "/missing-chapter.epub"
        try Self.writeBookMissingItsSecondChapter(to: path)
        let store = try LibraryStore(path: folder + "/library.sqlite")
        let outcome = await LibraryImporter(store: store, open: streamerOpening).importFile(path)
        _ = try #require(outcome.entry, "\(outcome.error ?? "")")

        let report = await LibraryIndexer(store: store, open: streamerOpening).indexPending()
        #expect(report.indexed.isEmpty)
        let failure = try #require(report.failed.first)
        #expect(failure.title == "Missing Chapter")
        #expect(failure.reason.contains("c2.xhtml"))
        // What could be read is searchable, and the book is not indexed again on every run.
        #expect(try search(store, "quartermaster").count == 1)
        #expect(try store.fullTextCoverage() == FullTextCoverage(indexed: 1, pending: 0))
    }
}
