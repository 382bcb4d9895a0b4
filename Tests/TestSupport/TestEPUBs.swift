import Foundation

/// EPUB files made by tests: a small EPUB 3 with one chapter whose body a test may write (text
/// in any script, `dir`, structure) and, when given, a cover image declared with
/// `properties="cover-image"`.
public enum TestEPUBs {
    /// `META-INF/container.xml` of an EPUB whose package document is `OPS/package.opf`.
    public static let containerXML = """
        <?xml version="1.0"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <rootfiles><rootfile full-path="OPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles>
        </container>
        """

    /// Writes an EPUB titled `title` by `author` to `path`, with `cover` (PNG bytes) as its
    /// cover image when given. Its identifier follows from the title, so the same title is the
    /// same book.
    public static func write(title: String, author: String = "Test Author", cover: Data?, to path: String) throws {
        try write(title: title, author: author, identifier: "urn:test:" + title.lowercased().replacingOccurrences(of: " ", with: "-"),
                  body: "<h1>Chapter 1</h1><p>The text of \(title).</p>", cover: cover, to: path)
    }

    /// Writes an EPUB titled `title` in `language` whose single chapter has `body` (XHTML inside
    /// `<body>`) to `path`; its identifier is new each time unless given. `missingChapters`
    /// (file names such as `c2.xhtml`) are listed in the manifest and spine after the chapter
    /// but left out of the archive: a book with a part that cannot be read. `chapterTitle` is
    /// the chapter's entry in the contents.
    public static func write(title: String, author: String = "Test Author", language: String = "en", identifier: String? = nil,
                             body: String, cover: Data? = nil, missingChapters: [String] = [], chapterTitle: String = "Chapter 1",
                             to path: String) throws {
        let coverItem = cover == nil ? "" : #"<item id="cover" href="cover.png" media-type="image/png" properties="cover-image"/>"#
        let missingItems = missingChapters.enumerated().map { #"<item id="m\#($0.offset)" href="\#($0.element)" media-type="application/xhtml+xml"/>"# }.joined()
        let missingRefs = missingChapters.indices.map { #"<itemref idref="m\#($0)"/>"# }.joined()
        let opf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:identifier id="id">\(identifier ?? "urn:test:\(UUID().uuidString)")</dc:identifier>
                <dc:title>\(title)</dc:title><dc:creator>\(author)</dc:creator><dc:language>\(language)</dc:language>
                <meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>
              </metadata>
              <manifest>
                <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
                <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
                \(coverItem)\(missingItems)
              </manifest>
              <spine><itemref idref="c1"/>\(missingRefs)</spine>
            </package>
            """
        let container = TestEPUBs.containerXML
        let nav = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>\(title)</title></head>
            <body><nav epub:type="toc"><ol><li><a href="c1.xhtml">\(chapterTitle)</a></li></ol></nav></body></html>
            """
        let chapter = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="\(language)"><head><title>Chapter 1</title></head>
            <body>\(body)</body></html>
            """
        var entries = [ZipBuilder.Entry("mimetype", "application/epub+zip", compression: .stored),
                       ZipBuilder.Entry("META-INF/container.xml", container),
                       ZipBuilder.Entry("OPS/package.opf", opf),
                       ZipBuilder.Entry("OPS/nav.xhtml", nav),
                       ZipBuilder.Entry("OPS/c1.xhtml", chapter)]
        if let cover { entries.append(ZipBuilder.Entry("OPS/cover.png", cover, compression: .stored)) }
        try ZipBuilder.write(entries, to: path)
    }
}
