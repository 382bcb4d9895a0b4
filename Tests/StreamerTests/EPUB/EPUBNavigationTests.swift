import Foundation
import Shared
@testable import Streamer
import Testing
import TestSupport

@Suite struct EPUBNavigationTests {
    static let manifestWithNav = """
    <item id="c1" href="text/c1.xhtml" media-type="application/xhtml+xml"/>
    <item id="nav" href="nav/nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
    """

    static func book(nav: String?, ncx: String?) throws -> ParsedEPUB {
        var entries = [ZipBuilder.Entry("OPS/text/c1.xhtml", EPUBTestSupport.xhtml)]
        if let nav { entries.append(.init("OPS/nav/nav.xhtml", nav)) }
        if let ncx { entries.append(.init("OPS/toc.ncx", ncx)) }
        let manifest = nav == nil
            ? #"<item id="c1" href="text/c1.xhtml" media-type="application/xhtml+xml"/><item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>"#
            : manifestWithNav
        return try EPUBTestSupport.parse(opf: EPUBTestSupport.opf(manifest: manifest, spineAttributes: "toc=\"ncx\""),
                                         entries: entries)
    }

    static func navDocument(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>n</title></head>
        <body>\(body)</body></html>
        """
    }

    static let ncx = """
    <?xml version="1.0"?>
    <ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
      <navMap>
        <navPoint id="p1"><navLabel><text>One</text></navLabel><content src="text/c1.xhtml#one"/>
          <navPoint id="p1a"><content src="text/c1.xhtml#unlabelled"/></navPoint>
        </navPoint>
        <navPoint id="p2"><navLabel><text>Part without target</text></navLabel>
          <navPoint id="p2a"><navLabel><text>Two A</text></navLabel><content src="text/c1.xhtml#twoa"/></navPoint>
        </navPoint>
        <navPoint id="p3"><navLabel><text>Nothing at all</text></navLabel></navPoint>
      </navMap>
      <pageList>
        <pageTarget id="pg1" type="normal" value="1"><navLabel><text>1</text></navLabel><content src="text/c1.xhtml#p1"/></pageTarget>
        <pageTarget id="pg2" type="normal" value="2"><navLabel><text>2</text></navLabel><content src="text/c1.xhtml#p2"/></pageTarget>
      </pageList>
    </ncx>
    """

    @Test func navigationDocumentShapes() throws {
        let nav = Self.navDocument("""
        <nav epub:type="toc"><h1>Contents</h1><ol>
          <li><a href="../text/c1.xhtml#a">  Chapter
              One </a></li>
          <li><span>Heading without entries</span></li>
          <li><span>Part</span><ol><li><a href="../text/c1.xhtml#b">Sub</a></li></ol></li>
          <li><a>Unlinked with children</a><ol><li><a href="#local">Local</a></li></ol></li>
          <li><a href="../text/c1.xhtml#empty"></a></li>
          <li><a href="../text/c1.xhtml#img"><img src="x.png" alt=""/></a><ol><li><a href="../text/c1.xhtml#c">C</a></li></ol></li>
          <li>no label</li>
        </ol></nav>
        <nav epub:type="loi"><ol><li><a href="../text/c1.xhtml#fig1">Figure 1</a></li></ol></nav>
        <nav epub:type="lot"><ol><li><a href="../text/c1.xhtml#tab1">Table 1</a></li></ol></nav>
        <nav epub:type="landmarks"><ol><li><a epub:type="bodymatter" href="../text/c1.xhtml">Start</a></li></ol></nav>
        """)
        let book = try Self.book(nav: nav, ncx: Self.ncx)
        let toc = book.manifest.tableOfContents
        #expect(toc.map(\.title) == ["Chapter One", "Part", "Unlinked with children", nil])
        #expect(toc.map(\.href) == ["OPS/text/c1.xhtml#a", "#", "#", "OPS/text/c1.xhtml#img"])
        #expect(toc[1].children.map(\.href) == ["OPS/text/c1.xhtml#b"])
        // Hrefs resolve against the navigation document, not the package document.
        #expect(toc[2].children.map(\.href) == ["OPS/nav/nav.xhtml#local"])
        #expect(toc[3].children.map(\.title) == ["C"])
        #expect(book.manifest.subcollectionLinks("loi").map(\.title) == ["Figure 1"])
        #expect(book.manifest.subcollectionLinks("lot").map(\.href) == ["OPS/text/c1.xhtml#tab1"])
        #expect(book.manifest.subcollectionLinks("landmarks").map(\.rels) == [["bodymatter"]])
        // The navigation document has no page list: the NCX's is used.
        #expect(book.manifest.subcollectionLinks("pageList").map(\.title) == ["1", "2"])
    }

    @Test func ncxIsTheFallbackWithoutANavigationDocument() throws {
        let book = try Self.book(nav: nil, ncx: Self.ncx)
        let toc = book.manifest.tableOfContents
        #expect(toc.map(\.title) == ["One", "Part without target"])
        #expect(toc.map(\.href) == ["OPS/text/c1.xhtml#one", "#"])
        // A navPoint without navLabel is kept, untitled.
        #expect(toc[0].children.map(\.title) == [nil])
        #expect(toc[0].children.map(\.href) == ["OPS/text/c1.xhtml#unlabelled"])
        #expect(toc[1].children.map(\.title) == ["Two A"])
        #expect(book.manifest.subcollectionLinks("pageList").map(\.href) == ["OPS/text/c1.xhtml#p1", "OPS/text/c1.xhtml#p2"])
    }

    @Test func navigationDocumentWithoutTOCFallsBackToTheNCX() throws {
        let nav = Self.navDocument(#"<nav epub:type="landmarks"><ol><li><a href="../text/c1.xhtml">Start</a></li></ol></nav>"#)
        let book = try Self.book(nav: nav, ncx: Self.ncx)
        #expect(book.manifest.tableOfContents.map(\.title) == ["One", "Part without target"])
        #expect(book.manifest.subcollectionLinks("landmarks").count == 1)
    }

    @Test func tagSoupNavigationIsReadWithTheHTMLParser() throws {
        let nav = """
        <html><body><nav epub:type="toc"><ol><li><a href="../text/c1.xhtml">Caf&eacute;&nbsp;One</a><li><a href="../text/c1.xhtml#2">Two</a></ol></nav>
        """
        let book = try Self.book(nav: nav, ncx: nil)
        #expect(book.manifest.tableOfContents.count == 2)
        #expect(book.manifest.tableOfContents.last?.href == "OPS/text/c1.xhtml#2")
    }

    @Test func unreadableNavigationIsAWarning() throws {
        let book = try Self.book(nav: "", ncx: "garbage")
        #expect(book.manifest.tableOfContents.isEmpty)
        #expect(book.manifest.readingOrder.count == 1)
        #expect(book.warned("navigation document cannot be parsed"))
        #expect(book.warned("NCX cannot be parsed"))
    }
}
