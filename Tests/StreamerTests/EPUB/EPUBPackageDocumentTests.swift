import Foundation
import Shared
@testable import Streamer
import Testing
import TestSupport

/// Package documents written for the cases the samples do not cover.
@Suite struct EPUBPackageDocumentTests {
    static var chapter: ZipBuilder.Entry { ZipBuilder.Entry("OPS/c1.xhtml", EPUBTestSupport.xhtml) }

    @Test func epub2Metadata() throws {
        let opf = """
        <?xml version="1.0"?>
        <package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="BookId">
          <metadata>
            <dc-metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
              <dc:title>Old Book</dc:title>
              <dc:creator opf:role="aut" opf:file-as="Doe, Jane">Jane Doe</dc:creator>
              <dc:creator opf:role="ill">Ann Artist</dc:creator>
              <dc:contributor opf:role="trl">Tom Translator</dc:contributor>
              <dc:contributor opf:role="bkp">Bob Producer</dc:contributor>
              <dc:creator>No Role</dc:creator>
              <dc:publisher>Old House</dc:publisher>
              <dc:date opf:event="creation">1999-01-01</dc:date>
              <dc:date opf:event="publication">2001-02-03</dc:date>
              <dc:date opf:event="modification">2005-06-07</dc:date>
              <dc:identifier id="BookId" opf:scheme="ISBN">9780000000002</dc:identifier>
              <dc:language>fr</dc:language>
              <dc:subject>Fiction; Adventure, Sea</dc:subject>
              <dc:description>  A   story. </dc:description>
            </dc-metadata>
            <meta name="cover" content="cover-img"/>
            <meta name="calibre:series" content="Voyages"/>
            <meta name="calibre:series_index" content="3"/>
            <meta name="calibre:title_sort" content="Book, Old"/>
          </metadata>
          <manifest>
            <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
            <item id="cover-img" href="img/cover.jpg" media-type="image/jpeg"/>
            <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
          </manifest>
          <spine toc="ncx"><itemref idref="c1"/></spine>
        </package>
        """
        let book = try EPUBTestSupport.parse(opf: opf, entries: [Self.chapter], wrap: UnlistedFetcher.init)
        let metadata = book.metadata
        #expect(metadata.title == "Old Book")
        #expect(metadata.localizedSortAs?.string == "Book, Old")
        #expect(metadata.identifier == "9780000000002")
        #expect(metadata.authors.map(\.name) == ["Jane Doe", "No Role"])
        #expect(metadata.authors.first?.localizedSortAs?.string == "Doe, Jane")
        #expect(metadata.illustrators.map(\.name) == ["Ann Artist"])
        #expect(metadata.translators.map(\.name) == ["Tom Translator"])
        #expect(metadata.contributors.map(\.name) == ["Bob Producer"])
        #expect(metadata.contributors.first?.roles == ["bkp"])
        #expect(metadata.publishers.map(\.name) == ["Old House"])
        #expect(metadata.published == "2001-02-03")
        #expect(metadata.modified == "2005-06-07")
        #expect(metadata.languages == ["fr"])
        #expect(metadata.subjects.map(\.name) == ["Fiction", "Adventure", "Sea"])
        #expect(metadata.description == "A   story.")
        #expect(metadata.belongsTo["series"]?.first?.name == "Voyages")
        #expect(metadata.belongsTo["series"]?.first?.position == 3)
        #expect(book.manifest.link(withRel: "cover")?.href == "OPS/img/cover.jpg")
        #expect(book.warned("the navigation cannot be read"))
    }

    @Test func epub3Refinements() throws {
        let metadata = """
        <dc:identifier id="uid">urn:uuid:12345678-1234-1234-1234-123456789abc</dc:identifier>
        <dc:identifier id="isbn">urn:isbn:9780000000002</dc:identifier>
        <dc:title id="sub">The Subtitle</dc:title>
        <meta refines="#sub" property="title-type">subtitle</meta>
        <dc:title id="main" xml:lang="en">The Main Title</dc:title>
        <meta refines="#main" property="title-type">main</meta>
        <meta refines="#main" property="file-as">Main Title, The</meta>
        <meta refines="#main" property="alternate-script" xml:lang="fr">Le Titre</meta>
        <dc:creator id="c1">Ann Both</dc:creator>
        <meta refines="#c1" property="role" scheme="marc:relators">aut</meta>
        <meta refines="#c1" property="role" scheme="marc:relators">ill</meta>
        <dc:creator id="c2">Ed Itor</dc:creator>
        <meta refines="#c2" property="role" scheme="marc:relators">edt</meta>
        <dc:contributor id="c3">Nora Narrator</dc:contributor>
        <meta refines="#c3" property="role" scheme="marc:relators">nrt</meta>
        <meta property="dcterms:creator" id="c4">Meta Author</meta>
        <dc:language>en</dc:language>
        <dc:language>fr</dc:language>
        <dc:subject id="s1">FICTION / General</dc:subject>
        <meta refines="#s1" property="authority">BISAC</meta>
        <meta refines="#s1" property="term">FIC000000</meta>
        <dc:subject>Second</dc:subject>
        <meta property="dcterms:modified">2020-01-02T03:04:05Z</meta>
        <dc:date>2019</dc:date>
        <meta property="belongs-to-collection" id="series">The Series</meta>
        <meta refines="#series" property="collection-type">series</meta>
        <meta refines="#series" property="group-position">2.5</meta>
        <meta property="belongs-to-collection" id="set">The Set</meta>
        <meta property="media:duration" refines="#c1-overlay">0:01:00</meta>
        <meta property="media:duration">1:02:03.5</meta>
        <meta property="r:layout">pre-paginated</meta>
        <meta property="r:orientation">landscape</meta>
        <meta property="r:spread">portrait</meta>
        <meta property="r:flow">scrolled-doc</meta>
        <meta property="schema:numberOfPages">321</meta>
        """
        let opf = EPUBTestSupport.opf(
            metadata: metadata,
            manifest: """
            <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
            <item id="c2" href="c2.xhtml" media-type="application/xhtml+xml" properties="svg scripted remote-resources"/>
            """,
            spine: """
            <itemref idref="c1" properties="rendition:layout-reflowable page-spread-left"/>
            <itemref idref="c2" properties="rendition:page-spread-center rendition:spread-none rendition:orientation-portrait"/>
            """,
            spineAttributes: "page-progression-direction=\"ltr\"",
            packageAttributes: "version=\"3.0\" unique-identifier=\"uid\" prefix=\"r: http://www.idpf.org/vocab/rendition/#\"")
        let book = try EPUBTestSupport.parse(opf: opf, entries: [Self.chapter, .init("OPS/c2.xhtml", EPUBTestSupport.xhtml)])
        let m = book.metadata
        #expect(m.identifier == "urn:uuid:12345678-1234-1234-1234-123456789abc")
        #expect(m.localizedTitle == .localized(["en": "The Main Title", "fr": "Le Titre"]))
        #expect(m.subtitle == "The Subtitle")
        #expect(m.localizedSortAs?.string == "Main Title, The")
        #expect(m.authors.map(\.name) == ["Ann Both", "Meta Author"])
        #expect(m.illustrators.map(\.name) == ["Ann Both"])
        #expect(m.editors.map(\.name) == ["Ed Itor"])
        #expect(m.narrators.map(\.name) == ["Nora Narrator"])
        #expect(m.languages == ["en", "fr"])
        #expect(m.subjects.count == 2)
        #expect(m.subjects.first?.scheme == "BISAC")
        #expect(m.subjects.first?.code == "FIC000000")
        #expect(m.modified == "2020-01-02T03:04:05Z")
        #expect(m.published == "2019")
        #expect(m.belongsTo["series"] == [Contributor(name: "The Series", position: 2.5)])
        #expect(m.belongsTo["collection"] == [Contributor(name: "The Set")])
        #expect(m.duration == 3723.5)
        #expect(m.numberOfPages == 321)
        #expect(m.readingProgression == .ltr)
        #expect(m.otherMetadata["presentation"] == .object(JSONObject([
            "layout": .string("fixed"), "orientation": .string("landscape"), "spread": .string("both"),
            "overflow": .string("scrolled"), "continuous": .bool(false),
        ])))

        let order = book.manifest.readingOrder
        #expect(order[0].properties.layout == "reflowable")
        #expect(order[0].properties.page == "left")
        #expect(order[1].properties.page == "center")
        #expect(order[1].properties["spread"] == .string("none"))
        #expect(order[1].properties["orientation"] == .string("portrait"))
        #expect(order[1].properties.contains == ["svg", "js", "remote-resources"])
    }

    @Test func manifestAndSpineEdgeCases() throws {
        let opf = EPUBTestSupport.opf(
            manifest: """
            <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
            <item id="notes" href="notes.xhtml" media-type="application/xhtml+xml"/>
            <item id="video" href="clip.webm" media-type="video/webm" fallback="poster"/>
            <item id="poster" href="poster.png" media-type="image/png" fallback="text"/>
            <item id="text" href="clip.xhtml" media-type="application/xhtml+xml" fallback="video"/>
            <item id="cover" href="images/cover.jpg" media-type="image/jpeg" properties="cover-image"/>
            <item id="remote" href="https://example.com/audio.mp3" media-type="audio/mpeg"/>
            <item id="notype" href="style.css"/>
            <item id="nav" href="nav/toc.xhtml" media-type="application/xhtml+xml" properties="nav"/>
            <item id="c1" href="duplicate.xhtml" media-type="application/xhtml+xml"/>
            """,
            spine: """
            <itemref idref="c1"/>
            <itemref idref="missing"/>
            <itemref idref="notes" linear="no"/>
            <itemref idref="c1"/>
            <itemref idref="text"/>
            """)
        let book = try EPUBTestSupport.parse(opf: opf, entries: [Self.chapter], wrap: UnlistedFetcher.init)
        #expect(book.manifest.readingOrder.map(\.href) == ["OPS/c1.xhtml", "OPS/clip.xhtml"])
        // The fallback chain (which loops back to the video) is kept as alternates.
        #expect(book.manifest.readingOrder[1].alternates.map(\.href) == ["OPS/clip.webm", "OPS/poster.png"])
        #expect(book.warned("\"missing\", which is not in the manifest"))
        #expect(book.warned("lists \"c1\" twice"))
        #expect(book.warned("loops"))
        #expect(book.warned("the id \"c1\""))
        let resources = book.manifest.resources
        #expect(resources.first?.href == "OPS/notes.xhtml")
        #expect(resources.contains { $0.href == "https://example.com/audio.mp3" })
        #expect(resources.first(withRel: "cover")?.href == "OPS/images/cover.jpg")
        #expect(resources.first(withRel: "contents")?.href == "OPS/nav/toc.xhtml")
        #expect(resources.first { $0.href == "OPS/style.css" }?.mediaType == .css)
        #expect(book.warned("no media-type"))
        // With a package that lists its entries: reading-order items missing from it are a major
        // warning, not a failure; other missing items are left out of the resources.
        let listed = try EPUBTestSupport.parse(opf: opf, entries: [Self.chapter])
        #expect(listed.warnings.contains { $0.href == "OPS/clip.xhtml" && $0.severity == .major })
        #expect(listed.manifest.readingOrder.map(\.href) == ["OPS/c1.xhtml", "OPS/clip.xhtml"])
        #expect(!listed.manifest.resources.contains { $0.href == "OPS/style.css" })
        #expect(listed.manifest.resources.contains { $0.href == "https://example.com/audio.mp3" })
    }

    @Test func emptySpineFallsBackToTheManifestDocuments() throws {
        let opf = EPUBTestSupport.opf(spine: "")
        let book = try EPUBTestSupport.parse(opf: opf, entries: [Self.chapter])
        #expect(book.manifest.readingOrder.map(\.href) == ["OPS/c1.xhtml"])
        #expect(book.warnings.contains { $0.severity == .major && $0.message.contains("spine lists no content document") })

        let nothing = EPUBTestSupport.opf(manifest: #"<item id="i" href="i.png" media-type="image/png"/>"#, spine: "")
        let error = try #require(throws: PublicationParseError.self) { try EPUBTestSupport.parse(opf: nothing) }
        #expect(error.userMessage.contains("OPS/package.opf"))
    }

    @Test func untitledBookUsesTheFileName() throws {
        let opf = EPUBTestSupport.opf(metadata: "<dc:identifier id=\"id\">x</dc:identifier>")
        let book = try EPUBTestSupport.parse(opf: opf, entries: [Self.chapter])
        #expect(book.metadata.title == "book")
        #expect(book.warned("no title"))
    }

    @Test func windowsContainerPathIsAccepted() throws {
        let path = Fixtures.temporaryDirectory("epub-test") + "/windows.epub"
        try ZipBuilder.write([
            .init("mimetype", "application/epub+zip", compression: .stored),
            .init("META-INF/container.xml", EPUBTestSupport.container("OPS/package.opf"), compression: .stored),
            .init("OPS/package.opf", EPUBTestSupport.opf()), Self.chapter,
        ], to: path)
        // Info-ZIP cannot store a backslash in a name: rename the entry in place (same length,
        // in the local header and the central directory; the CRC covers the content only).
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let slash = Data("META-INF/container.xml".utf8), backslash = Data("META-INF\\container.xml".utf8)
        var renamed = 0
        while let range = bytes.range(of: slash) {
            bytes.replaceSubrange(range, with: backslash)
            renamed += 1
        }
        #expect(renamed == 2)
        try bytes.write(to: URL(fileURLWithPath: path))

        let book = try EPUBTestSupport.parse(path: path)
        #expect(book.manifest.readingOrder.map(\.href) == ["OPS/c1.xhtml"])
        #expect(book.warned("Windows path separator"))
    }

    @Test func containerErrors() throws {
        let noContainer = Fixtures.temporaryDirectory("epub-test") + "/nocontainer.epub"
        try ZipBuilder.write([.init("mimetype", "application/epub+zip", compression: .stored), Self.chapter], to: noContainer)
        let missing = try #require(throws: PublicationParseError.self) { try EPUBTestSupport.parse(path: noContainer) }
        #expect(missing.userMessage == "the EPUB container file is missing (META-INF/container.xml)")

        let noRootfile = Fixtures.temporaryDirectory("epub-test") + "/norootfile.epub"
        try ZipBuilder.write([
            .init("mimetype", "application/epub+zip", compression: .stored),
            .init("META-INF/container.xml", """
            <container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>
            <rootfile full-path="a.txt" media-type="text/plain"/></rootfiles></container>
            """),
        ], to: noRootfile)
        let invalid = try #require(throws: PublicationParseError.self) { try EPUBTestSupport.parse(path: noRootfile) }
        #expect(invalid.userMessage.contains("no rootfile"))

        let untyped = Fixtures.temporaryDirectory("epub-test") + "/untyped.epub"
        try ZipBuilder.write([
            .init("mimetype", "application/epub+zip", compression: .stored),
            .init("META-INF/container.xml", """
            <container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>
            <rootfile full-path="OPS/package.opf"/></rootfiles></container>
            """),
            .init("OPS/package.opf", EPUBTestSupport.opf()), Self.chapter,
        ], to: untyped)
        let book = try EPUBTestSupport.parse(path: untyped)
        #expect(book.manifest.readingOrder.count == 1)
        #expect(book.warned("no media-type"))
    }

    @Test func mimetypeProblemsAreWarnings() throws {
        let path = Fixtures.temporaryDirectory("epub-test") + "/mimetype.epub"
        try ZipBuilder.write([
            .init("META-INF/container.xml", EPUBTestSupport.container("OPS/package.opf")),
            .init("OPS/package.opf", EPUBTestSupport.opf()), Self.chapter,
            .init("mimetype", "application/zip", compression: .deflated),
        ], to: path)
        let book = try EPUBTestSupport.parse(path: path)
        #expect(book.manifest.readingOrder.count == 1)
        #expect(book.warned("not the first entry"))
        #expect(book.warned("holds `application/zip`"))
        #expect(book.warnings.allSatisfy { $0.severity != .major })
    }
}
