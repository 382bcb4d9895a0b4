import Foundation

/// A one-chapter EPUB 3 whose chapter body a test writes (text in any script, `dir`,
/// structure), for tests that need a book with particular text.
public enum ChapterEPUB {
    /// Writes an EPUB titled `title` in `language` whose single chapter has `body` (XHTML
    /// inside `<body>`) to `path`.
    public static func write(title: String, language: String = "en", body: String, to path: String) throws {
        let opf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:identifier id="id">urn:test:\(UUID().uuidString)</dc:identifier>
                <dc:title>\(title)</dc:title><dc:creator>Test Author</dc:creator><dc:language>\(language)</dc:language>
                <meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>
              </metadata>
              <manifest>
                <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
                <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
              </manifest>
              <spine><itemref idref="c1"/></spine>
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
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>\(title)</title></head>
            <body><nav epub:type="toc"><ol><li><a href="c1.xhtml">Chapter 1</a></li></ol></nav></body></html>
            """
        let chapter = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="\(language)"><head><title>Chapter 1</title></head>
            <body>\(body)</body></html>
            """
        try ZipBuilder.write([ZipBuilder.Entry("mimetype", "application/epub+zip", compression: .stored),
                              ZipBuilder.Entry("META-INF/container.xml", container),
                              ZipBuilder.Entry("OPS/package.opf", opf),
                              ZipBuilder.Entry("OPS/nav.xhtml", nav),
                              ZipBuilder.Entry("OPS/c1.xhtml", chapter)], to: path)
    }
}
