import Foundation
import Shared
@testable import Streamer
import Testing
import TestSupport

/// Hostile packages: each must give a clear error or a tolerable publication, never a crash,
/// a hang or content from outside the package.
@Suite struct EPUBHostileInputTests {
    static var chapter: ZipBuilder.Entry { ZipBuilder.Entry("OPS/c1.xhtml", EPUBTestSupport.xhtml) }

    static let laughs = """
    <!DOCTYPE package [
     <!ENTITY lol "lol">
     <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
     <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
     <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
     <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
     <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
     <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
     <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
     <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
     <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
    ]>
    """

    /// The whole manifest as text, to search for leaked content.
    static func dump(_ book: ParsedEPUB) -> String {
        String(describing: book.manifest.json)
    }

    @Test func billionLaughsInThePackageDocument() throws {
        let opf = """
        <?xml version="1.0"?>
        \(Self.laughs)
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="&lol9;">
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:title>&lol9;</dc:title><dc:identifier id="id">&lol9;</dc:identifier><dc:creator>&lol9;</dc:creator>
          </metadata>
          <manifest><item id="c1" href="c1.xhtml&lol9;" media-type="application/xhtml+xml"/>
            <item id="c2" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest>
          <spine><itemref idref="c1"/><itemref idref="c2"/></spine>
        </package>
        """
        // libxml2 refuses the amplification and drops the references: the book opens without
        // the values that used them.
        let book = try EPUBTestSupport.parse(opf: opf, entries: [Self.chapter])
        #expect(Self.dump(book).count < 10_000)
        #expect(!Self.dump(book).contains("lollol"))
        #expect(book.metadata.title == "book")
        #expect(book.manifest.readingOrder.allSatisfy { $0.href == "OPS/c1.xhtml" })
    }

    @Test func externalEntitiesAreNeverResolved() throws {
        let secret = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        let firstLine = try #require(secret.split(separator: "\n").first.map(String.init))
        let doctype = """
        <!DOCTYPE package [
          <!ENTITY xxe SYSTEM "file:///etc/passwd">
          <!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd"> %remote;
        ]>
        """
        let opf = """
        <?xml version="1.0"?>
        \(doctype)
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:title>Title &xxe;</dc:title><dc:identifier id="id">&xxe;</dc:identifier>
            <dc:description>&xxe;</dc:description><dc:creator>&xxe;</dc:creator>
          </metadata>
          <manifest>
            <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
            <item id="x" href="&xxe;" media-type="text/plain"/>
            <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
          </manifest>
          <spine><itemref idref="c1"/></spine>
        </package>
        """
        let nav = """
        <?xml version="1.0"?>
        <!DOCTYPE html [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
        <nav epub:type="toc"><ol><li><a href="c1.xhtml">&xxe;</a></li><li><a href="&xxe;">x</a></li></ol></nav></body></html>
        """
        let book = try EPUBTestSupport.parse(opf: opf, entries: [Self.chapter, .init("OPS/nav.xhtml", nav)])
        let text = Self.dump(book)
        #expect(!text.contains(firstLine))
        #expect(!text.contains("root:"))
        #expect(book.warnings.allSatisfy { !$0.description.contains("root:") })
        #expect(book.manifest.readingOrder.map(\.href) == ["OPS/c1.xhtml"])
    }

    @Test func hugeAttribute() throws {
        let huge = String(repeating: "a", count: 11_000_000)
        let opf = EPUBTestSupport.opf(manifest: """
        <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
        <item id="big" href="\(huge).xhtml" media-type="application/xhtml+xml" properties="\(huge)"/>
        """)
        // libxml2 refuses attribute values over 10 MB: the item loses its href and is dropped.
        let book = try EPUBTestSupport.parse(opf: opf, entries: [Self.chapter])
        #expect(book.manifest.readingOrder.map(\.href) == ["OPS/c1.xhtml"])
        #expect(book.manifest.resources.isEmpty)
        #expect(book.warned("no usable href"))
    }

    @Test func deeplyNestedPackageDocument() throws {
        let depth = 100_000
        let metadata = "<dc:title>T</dc:title><dc:identifier id=\"id\">x</dc:identifier>"
            + String(repeating: "<x>", count: depth) + String(repeating: "</x>", count: depth)
        // libxml2 stops at 256 levels; what follows (manifest, spine) is lost, which the
        // parser reports instead of opening an empty book.
        let error = try #require(throws: PublicationParseError.self) {
            try EPUBTestSupport.parse(opf: EPUBTestSupport.opf(metadata: metadata), entries: [Self.chapter])
        }
        #expect(error.userMessage == "OPS/package.opf: the spine lists no content document to read")
    }

    @Test func deeplyNestedNavigation() throws {
        func nav(depth: Int) -> String {
            let nested = String(repeating: "<ol><li><a href=\"c1.xhtml\">x</a>", count: depth)
                + String(repeating: "</li></ol>", count: depth)
            return EPUBNavigationTests.navDocument("<nav epub:type=\"toc\">\(nested)</nav>")
        }
        let opf = EPUBTestSupport.opf(manifest: """
        <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
        <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
        """)
        func depthOf(_ links: [Link]) -> Int { links.map { 1 + depthOf($0.children) }.max() ?? 0 }

        // Deeper than Lectern keeps but within what libxml2 parses: cut at the limit, with a warning.
        let deep = try EPUBTestSupport.parse(opf: opf, entries: [Self.chapter, .init("OPS/nav.xhtml", nav(depth: 100))])
        #expect(depthOf(deep.manifest.tableOfContents) == EPUBLimits.maxNavigationDepth)
        #expect(deep.warned("nested deeper than"))

        // Far deeper than libxml2 accepts: the document is not well-formed XML any more and
        // whatever the HTML parser makes of it stays bounded.
        let hostile = try EPUBTestSupport.parse(opf: opf, entries: [Self.chapter, .init("OPS/nav.xhtml", nav(depth: 100_000))])
        #expect(depthOf(hostile.manifest.tableOfContents) <= EPUBLimits.maxNavigationDepth)
        #expect(hostile.manifest.readingOrder.map(\.href) == ["OPS/c1.xhtml"])

        // A label nested 200,000 levels deep in tag soup: its text is never walked recursively
        // beyond what the parser kept, and nothing crashes.
        let depth = 200_000
        let label = "<a href=\"c1.xhtml\">" + String(repeating: "<span>", count: depth) + "deep"
            + String(repeating: "</span>", count: depth) + "</a>"
        let soup = "<html><body><nav epub:type=\"toc\"><ol><li>\(label)<li><a href=\"c1.xhtml\">two</a></ol></nav>&nbsp;"
        let label200k = try EPUBTestSupport.parse(opf: opf, entries: [Self.chapter, .init("OPS/nav.xhtml", soup)])
        #expect(label200k.manifest.readingOrder.map(\.href) == ["OPS/c1.xhtml"])
        #expect(depthOf(label200k.manifest.tableOfContents) <= EPUBLimits.maxNavigationDepth)
    }

    @Test func dotDotHrefsStayInsideThePackage() throws {
        // An exploded package in a folder, with a file beside the folder that `..` would reach.
        let root = Fixtures.temporaryDirectory("epub-dotdot")
        let package = root + "/book"
        let outside = root + "/outside.xhtml"
        try FileManager.default.createDirectory(atPath: package + "/META-INF", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: package + "/OPS", withIntermediateDirectories: true)
        try Data("SECRET-OUTSIDE".utf8).write(to: URL(fileURLWithPath: outside))
        try Data("application/epub+zip".utf8).write(to: URL(fileURLWithPath: package + "/mimetype"))
        try Data(EPUBTestSupport.container("OPS/../../../OPS/package.opf").utf8)
            .write(to: URL(fileURLWithPath: package + "/META-INF/container.xml"))
        try Data(EPUBTestSupport.xhtml.utf8).write(to: URL(fileURLWithPath: package + "/OPS/c1.xhtml"))
        let opf = EPUBTestSupport.opf(
            manifest: """
            <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
            <item id="escape" href="../../../outside.xhtml" media-type="application/xhtml+xml"/>
            <item id="abs" href="/../../etc/passwd" media-type="text/plain"/>
            <item id="nav" href="../../nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
            """,
            spine: "<itemref idref=\"c1\"/><itemref idref=\"escape\"/>")
        try Data(opf.utf8).write(to: URL(fileURLWithPath: package + "/OPS/package.opf"))
        try Data(EPUBNavigationTests.navDocument("""
        <nav epub:type="toc"><ol><li><a href="../../../../outside.xhtml">out</a></li></ol></nav>
        """).utf8).write(to: URL(fileURLWithPath: package + "/nav.xhtml"))

        let recorder = RecordingFetcher(FileFetcher(href: "", path: package))
        let asset = Asset(name: "book", location: package, format: Format(kind: .epub), fetcher: recorder)
        let logger = ListWarningLogger()
        let builder = try #require(try EPUBParser().parse(asset: asset, fetcher: recorder, warnings: logger))
        let manifest = builder.manifest
        // RFC 3986: `..` above the root stays at the root.
        #expect(manifest.readingOrder.map(\.href) == ["OPS/c1.xhtml", "outside.xhtml"])
        // The escaping item resolves to `etc/passwd` inside the package, which has no such entry.
        #expect(!manifest.resources.contains { $0.href == "etc/passwd" })
        #expect(logger.warnings.contains { $0.href == "etc/passwd" && $0.message.contains("missing") })
        #expect(manifest.resources.first(withRel: "contents")?.href == "nav.xhtml")
        #expect(manifest.tableOfContents.map(\.href) == ["outside.xhtml"])
        #expect(recorder.requestedHrefs.allSatisfy { !$0.hasPrefix("..") && !$0.hasPrefix("/") && !$0.contains("/../") })
        // Reading the escaping items finds nothing: they designate absent entries of the package.
        for href in ["outside.xhtml", "etc/passwd"] {
            let result = builder.fetcher.get(Link(href: href)).read()
            #expect(throws: ResourceError.self) { try result.get() }
        }
        #expect(logger.warnings.contains { $0.href == "outside.xhtml" && $0.message.contains("missing") })
        #expect(!String(describing: manifest.json).contains("SECRET-OUTSIDE"))
    }

    @Test func malformedPackageDocuments() throws {
        let notXML = try #require(throws: PublicationParseError.self) {
            try EPUBTestSupport.parse(opf: "this is not XML", entries: [Self.chapter])
        }
        #expect(notXML.userMessage.hasPrefix("OPS/package.opf: not a readable XML document"))

        let wrongRoot = try #require(throws: PublicationParseError.self) {
            try EPUBTestSupport.parse(opf: "<html><body/></html>", entries: [Self.chapter])
        }
        #expect(wrongRoot.userMessage.contains("not <package>"))

        // Truncated in the middle of the manifest: recovered as far as it goes.
        let full = EPUBTestSupport.opf()
        let truncated = String(full.prefix(upTo: full.range(of: "media-type")!.lowerBound))
        let recovered = try EPUBTestSupport.parse(opf: truncated, entries: [Self.chapter])
        #expect(recovered.manifest.readingOrder.map(\.href) == ["OPS/c1.xhtml"])
    }

    @Test func oversizedPackageDocumentIsRefused() throws {
        // 40 MB of white space deflates to almost nothing: a small ZIP bomb.
        let padding = String(repeating: " ", count: 40 << 20)
        let opf = EPUBTestSupport.opf().replacingOccurrences(of: "<manifest>", with: "<manifest>" + padding)
        let error = try #require(throws: PublicationParseError.self) {
            try EPUBTestSupport.parse(opf: opf, entries: [Self.chapter])
        }
        #expect(error.userMessage.contains("OPS/package.opf"))
        #expect(error.userMessage.contains("bytes"))
    }

    @Test func hostileEncryptionAndNavigationFiles() throws {
        let encryption = """
        <?xml version="1.0"?>
        \(Self.laughs.replacingOccurrences(of: "package", with: "encryption"))
        <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#">
            <EncryptionMethod Algorithm="&lol9;"/>
            <CipherData><CipherReference URI="OPS/c1.xhtml&lol9;"/></CipherData>
          </EncryptedData>
        </encryption>
        """
        let nav = """
        <?xml version="1.0"?>
        \(Self.laughs.replacingOccurrences(of: "package", with: "html"))
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
        <nav epub:type="toc"><ol><li><a href="c1.xhtml">&lol9;</a></li></ol></nav></body></html>
        """
        let opf = EPUBTestSupport.opf(manifest: """
        <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
        <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
        """)
        let book = try EPUBTestSupport.parse(opf: opf, entries: [
            Self.chapter, .init("OPS/nav.xhtml", nav), .init("META-INF/encryption.xml", encryption),
        ])
        #expect(book.manifest.readingOrder.count == 1)
        #expect(Self.dump(book).count < 10_000)
    }
}
