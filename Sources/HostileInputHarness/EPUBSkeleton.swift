import FoundationEssentials

/// A small, valid EPUB held in memory, into which the EPUB inputs are put one document at a
/// time: the other documents stay sound, so the parser gets past them to the hostile one and
/// then uses what it made of it (hrefs, reading order, navigation, deobfuscation).
///
/// The EPUB 3 package has a navigation document, an NCX, an obfuscated font and a cover; the
/// EPUB 2 package (used when the NCX is the input) has no navigation document, so the NCX is read.
enum EPUBSkeleton {
    static let containerPath = "META-INF/container.xml"
    static let encryptionPath = "META-INF/encryption.xml"
    static let packagePath = "OEBPS/content.opf"
    static let navigationPath = "OEBPS/nav.xhtml"
    static let ncxPath = "OEBPS/toc.ncx"
    static let fontPath = "OEBPS/fonts/font.otf"
    /// Other places packages are commonly found, also served with the package document, so that
    /// a hostile `container.xml` modelled on a real book still leads to a package.
    static let otherPackagePaths = ["EPUB/package.opf", "OPS/package.opf", "content.opf"]

    static let container = """
    <?xml version="1.0" encoding="UTF-8"?>
    <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
      <rootfiles>
        <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
      </rootfiles>
    </container>
    """

    static let epub3Package = """
    <?xml version="1.0" encoding="UTF-8"?>
    <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid" xml:lang="en"
             prefix="rendition: http://www.idpf.org/vocab/rendition/#">
      <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
        <dc:identifier id="uid">urn:uuid:2b6c8f0e-5a61-4d1e-9c3b-7d0a4e5f6a17</dc:identifier>
        <dc:title id="t1">Skeleton</dc:title>
        <meta refines="#t1" property="title-type">main</meta>
        <dc:creator id="c1">A. Author</dc:creator>
        <meta refines="#c1" property="role" scheme="marc:relators">aut</meta>
        <dc:language>en</dc:language>
        <meta property="dcterms:modified">2024-01-01T00:00:00Z</meta>
        <meta property="belongs-to-collection" id="s1">Series</meta>
        <meta refines="#s1" property="group-position">2</meta>
        <meta name="cover" content="cover"/>
        <meta property="rendition:layout">reflowable</meta>
      </metadata>
      <manifest>
        <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
        <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
        <item id="c1x" href="chapter1.xhtml" media-type="application/xhtml+xml"/>
        <item id="c2x" href="chapter2.xhtml" media-type="application/xhtml+xml" fallback="c1x"/>
        <item id="font" href="fonts/font.otf" media-type="font/otf"/>
        <item id="cover" href="images/cover.jpg" media-type="image/jpeg" properties="cover-image"/>
      </manifest>
      <spine toc="ncx" page-progression-direction="ltr">
        <itemref idref="c1x"/>
        <itemref idref="c2x" properties="page-spread-right"/>
        <itemref idref="nav" linear="no"/>
      </spine>
    </package>
    """

    static let epub2Package = """
    <?xml version="1.0" encoding="UTF-8"?>
    <package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="uid">
      <metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
        <dc:identifier id="uid">urn:uuid:2b6c8f0e-5a61-4d1e-9c3b-7d0a4e5f6a17</dc:identifier>
        <dc:title>Skeleton</dc:title>
        <dc:creator opf:role="aut" opf:file-as="Author, A.">A. Author</dc:creator>
        <dc:language>en</dc:language>
        <meta name="cover" content="cover"/>
        <meta name="calibre:series" content="Series"/>
        <meta name="calibre:series_index" content="2"/>
      </metadata>
      <manifest>
        <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
        <item id="c1x" href="chapter1.xhtml" media-type="application/xhtml+xml"/>
        <item id="c2x" href="chapter2.xhtml" media-type="application/xhtml+xml"/>
        <item id="cover" href="images/cover.jpg" media-type="image/jpeg"/>
      </manifest>
      <spine toc="ncx">
        <itemref idref="c1x"/>
        <itemref idref="c2x"/>
      </spine>
      <guide><reference type="cover" href="chapter1.xhtml" title="Cover"/></guide>
    </package>
    """

    static let navigation = """
    <?xml version="1.0" encoding="UTF-8"?>
    <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
      <head><title>Contents</title></head>
      <body>
        <nav epub:type="toc"><h1>Contents</h1>
          <ol>
            <li><a href="chapter1.xhtml">One</a>
              <ol><li><a href="chapter1.xhtml#s1">One, first</a></li></ol></li>
            <li><span>Two</span><ol><li><a href="chapter2.xhtml">Two</a></li></ol></li>
          </ol>
        </nav>
        <nav epub:type="page-list" hidden=""><ol><li><a href="chapter1.xhtml#p1">1</a></li></ol></nav>
        <nav epub:type="landmarks"><ol><li><a epub:type="bodymatter" href="chapter1.xhtml">Start</a></li></ol></nav>
      </body>
    </html>
    """

    static let ncx = """
    <?xml version="1.0" encoding="UTF-8"?>
    <ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
      <head><meta name="dtb:uid" content="urn:uuid:2b6c8f0e-5a61-4d1e-9c3b-7d0a4e5f6a17"/></head>
      <docTitle><text>Skeleton</text></docTitle>
      <navMap>
        <navPoint id="n1" playOrder="1"><navLabel><text>One</text></navLabel><content src="chapter1.xhtml"/>
          <navPoint id="n2" playOrder="2"><navLabel><text>One, first</text></navLabel><content src="chapter1.xhtml#s1"/></navPoint>
        </navPoint>
        <navPoint id="n3" playOrder="3"><navLabel><text>Two</text></navLabel><content src="chapter2.xhtml"/></navPoint>
      </navMap>
      <pageList><pageTarget id="p1" type="normal" value="1"><navLabel><text>1</text></navLabel><content src="chapter1.xhtml#p1"/></pageTarget></pageList>
    </ncx>
    """

    static let encryption = """
    <?xml version="1.0" encoding="UTF-8"?>
    <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
      <EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#">
        <EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/>
        <CipherData><CipherReference URI="OEBPS/fonts/font.otf"/></CipherData>
      </EncryptedData>
    </encryption>
    """

    static func chapter(_ title: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml"><head><title>\(title)</title></head>
        <body><h1>\(title)</h1><p id="s1">Text.</p><span id="p1"/></body></html>
        """
    }

    /// 2 KiB standing in for an obfuscated font (more than the 1,040 bytes IDPF obfuscation
    /// covers), and a few bytes standing in for a JPEG.
    static let font = Data((0..<2048).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    static let cover = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0xFF, 0xD9])

    /// The files of the book, EPUB 3 or EPUB 2, with `replacing` put in place of one of them.
    static func files(epub2: Bool, replacing path: String, with bytes: Data) -> [(path: String, bytes: Data)] {
        let package = Data((epub2 ? epub2Package : epub3Package).utf8)
        var files: [(path: String, bytes: Data)] = [
            ("mimetype", Data("application/epub+zip".utf8)),
            (containerPath, Data(container.utf8)),
            (encryptionPath, Data(encryption.utf8)),
            (packagePath, package),
            (navigationPath, Data(navigation.utf8)),
            (ncxPath, Data(ncx.utf8)),
            ("OEBPS/chapter1.xhtml", Data(chapter("One").utf8)),
            ("OEBPS/chapter2.xhtml", Data(chapter("Two").utf8)),
            (fontPath, font),
            ("OEBPS/images/cover.jpg", cover),
        ]
        files += otherPackagePaths.map { ($0, package) }
        if epub2 { files.removeAll { $0.path == navigationPath || $0.path == encryptionPath } }
        if let index = files.firstIndex(where: { $0.path == path }) {
            files[index].bytes = bytes
        } else {
            files.append((path, bytes))
        }
        return files
    }
}
