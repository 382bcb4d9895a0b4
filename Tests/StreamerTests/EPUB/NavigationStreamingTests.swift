import Foundation
import Shared
@testable import Streamer
import Testing
import TestSupport

/// #28: a well-formed navigation document is read entry after entry (each `ol > li` of a nav
/// made a tree of its own), never the whole document as a tree (the bench's 2,014-entry
/// navigation was a 1.4 MB tree right after the first page). The navigations must be the ones
/// the whole tree gives; a document that is not well-formed still goes to the tree parsers.
@Suite struct NavigationStreamingTests {
    static func expectSame(_ data: Data, href: String, _ name: String) throws {
        let streamedWarnings = ListWarningLogger(), treeWarnings = ListWarningLogger()
        let streamed = try #require(NavigationDocumentParser.streamed(data, href: href, warnings: streamedWarnings),
                                    "\(name) was not streamed")
        let tree = NavigationDocumentParser(tree: data, href: href, warnings: treeWarnings)
        #expect(streamed == tree.navigations, "\(name)")
        #expect(streamedWarnings.warnings.map(\.message) == treeWarnings.warnings.map(\.message), "\(name)")
    }

    @Test func everySampleNavigationReadsAsFromItsTree() throws {
        let folder = Fixtures.sample("epub")
        var checked = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where name.hasSuffix(".epub") {
            let book = try EPUBTestSupport.parse(path: folder + "/" + name)
            guard let nav = book.manifest.resources.first(where: { $0.hasRel("contents") })
                ?? book.manifest.readingOrder.first(where: { $0.hasRel("contents") }) else { continue }
            let data = try book.read(nav.href)
            guard NavigationDocumentParser.streamed(data, href: nav.href, warnings: nil) != nil else { continue }
            try Self.expectSame(data, href: nav.href, name)
            checked += 1
        }
        #expect(checked >= 5)
    }

    /// Headings before the list, a second list, a nav nested in an entry, nested entries,
    /// headings without links, landmarks typed under another prefix, a nav nested in a
    /// section, inline markup in labels and an entity from the internal subset.
    @Test func awkwardNavigationReadsAsFromItsTree() throws {
        let nav = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE html [<!ENTITY ch "Chapter">]>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xmlns:o="http://www.idpf.org/2007/ops">
        <head><title>Nav</title></head>
        <body>
          <nav epub:type="toc" id="toc"><h1>Contents</h1>
            <ol>
              <li><a href="c1.xhtml">&ch; <em>One</em> <b>bold</b></a>
                <ol><li><a href="c1.xhtml#s1">Section</a></li><li><span>Heading only</span></li>
                  <li><span>Part</span><ol><li><a href="c2.xhtml">Deep</a></li></ol></li></ol></li>
              <li><a href="c3.xhtml" title="Titled"> </a><nav epub:type="page-list"><ol><li><a href="x.xhtml">inner</a></li></ol></nav></li>
              <li><a href="c4.xhtml"/></li>
            </ol>
            <ol><li><a href="second.xhtml">Second list</a></li></ol>
          </nav>
          <section><nav o:type="landmarks"><ol><li><a o:type="bodymatter" href="c1.xhtml">Start</a></li></ol></nav></section>
          <nav epub:type="toc"><ol><li><a href="ignored.xhtml">Second toc</a></li></ol></nav>
          <nav epub:type="page-list" hidden=""><ol><li><a href="c1.xhtml#p1">1</a></li><li><a href="c2.xhtml#p2">2</a></li></ol></nav>
        </body>
        </html>
        """
        try Self.expectSame(Data(nav.utf8), href: "OPS/nav.xhtml", "awkward navigation")
        let read = try #require(NavigationDocumentParser.streamed(Data(nav.utf8), href: "OPS/nav.xhtml", warnings: nil))
        #expect(read["toc"]?.map(\.href) == ["OPS/c1.xhtml", "OPS/c3.xhtml"])
        #expect(read["landmarks"]?.first?.rels == ["bodymatter"])
        #expect(read["page-list"]?.count == 2)
    }

    /// An HTML entity without a DTD is not well-formed XML: the tree parsers read it.
    @Test func aMalformedNavigationGoesToTheTreeParsers() {
        let nav = """
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
        <nav epub:type="toc"><ol><li><a href="c1.xhtml">One&nbsp;Two</a></li></ol></nav></body></html>
        """
        #expect(NavigationDocumentParser.streamed(Data(nav.utf8), href: "OPS/nav.xhtml", warnings: nil) == nil)
        let parsed = NavigationDocumentParser(data: Data(nav.utf8), href: "OPS/nav.xhtml", warnings: nil)
        #expect(parsed.navigations["toc"]?.map(\.href) == ["OPS/c1.xhtml"])
    }
}
