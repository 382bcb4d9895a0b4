import Foundation

/// An EPUB 3 with a page list (#29 item 8): two chapters of `pagesPerChapter` printed pages
/// each, page N beginning with a page break `pN` (a chapter's first page, its heading `pN`) and the words
/// "Printed page N begins here.",
/// a `page-list` naming them 1, 2… and `landmarks` (the contents and the start of the text).
public enum PageListEPUB {
    public static func write(to path: String, pagesPerChapter: Int = 20) throws {
        func chapter(_ number: Int) -> String {
            let first = (number - 1) * pagesPerChapter + 1
            // A chapter's first page begins before its heading.
            let pages = (first..<(first + pagesPerChapter)).map { page in
                "<p>" + (page == first ? "" : #"<span epub:type="pagebreak" id="p\#(page)" title="\#(page)"/>"#)
                    + "Printed page \(page) begins here.</p>"
                    + String(repeating: "<p>Words of a printed page, long enough to fill a few lines of the window.</p>", count: 6)
            }.joined()
            return """
                <?xml version="1.0" encoding="UTF-8"?>
                <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Chapter \(number)</title></head>
                <body><h1 id="p\(first)">Chapter \(number)</h1>\(pages)</body></html>
                """
        }
        let total = 2 * pagesPerChapter
        let pageItems = (1...total).map { page in
            #"<li><a href="c\#(page <= pagesPerChapter ? 1 : 2).xhtml#p\#(page)">\#(page)</a></li>"#
        }.joined()
        let nav = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Pages</title></head>
            <body><nav epub:type="toc"><ol><li><a href="c1.xhtml">Chapter 1</a></li><li><a href="c2.xhtml">Chapter 2</a></li></ol></nav>
            <nav epub:type="page-list" hidden="hidden"><ol>\(pageItems)</ol></nav>
            <nav epub:type="landmarks"><ol><li><a epub:type="toc" href="nav.xhtml">Table of Contents</a></li>
            <li><a epub:type="bodymatter" href="c2.xhtml#p\(pagesPerChapter + 1)">Second Part</a></li></ol></nav></body></html>
            """
        let opf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:identifier id="id">urn:test:page-list</dc:identifier>
                <dc:title>Printed Pages</dc:title><dc:creator>Test Author</dc:creator><dc:language>en</dc:language>
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
        let container = TestEPUBs.containerXML
        try ZipBuilder.write([ZipBuilder.Entry("mimetype", "application/epub+zip", compression: .stored),
                              ZipBuilder.Entry("META-INF/container.xml", container),
                              ZipBuilder.Entry("OPS/package.opf", opf),
                              ZipBuilder.Entry("OPS/nav.xhtml", nav),
                              ZipBuilder.Entry("OPS/c1.xhtml", chapter(1)),
                              ZipBuilder.Entry("OPS/c2.xhtml", chapter(2))], to: path)
    }
}
