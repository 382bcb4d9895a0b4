import Foundation

/// Images made by tests: PNG files written here (no image library needed), with colour
/// regions a test can look for in what Lectern draws.
public enum TestImages {
    public typealias RGB = (r: UInt8, g: UInt8, b: UInt8)

    public static let red: RGB = (255, 0, 0)
    public static let green: RGB = (0, 255, 0)
    public static let blue: RGB = (0, 0, 255)
    public static let yellow: RGB = (255, 255, 0)
    public static let white: RGB = (255, 255, 255)
    public static let black: RGB = (0, 0, 0)

    /// A PNG (8-bit RGB, uncompressed deflate blocks) whose pixel (x, y) is `pixel(x, y)`.
    public static func png(width: Int, height: Int, pixel: (Int, Int) -> RGB) -> Data {
        var raw = [UInt8]()
        raw.reserveCapacity((width * 3 + 1) * height)
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width {
                let color = pixel(x, y)
                raw += [color.r, color.g, color.b]
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let end = min(raw.count, offset + 65_535)
            let length = UInt16(end - offset)
            zlib.append(end == raw.count ? 1 : 0)
            zlib += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            zlib += raw[offset..<end]
            offset = end
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        zlib += bigEndian((b << 16) | a)
        return pngFile(ihdr: bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0], idat: zlib)
    }

    /// A PNG whose header claims `width` × `height` pixels but holds almost no data: a
    /// decompression bomb's declaration.
    public static func pngClaiming(width: Int, height: Int) -> Data {
        pngFile(ihdr: bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0], idat: [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0, 0, 0, 1])
    }

    /// Four colour quadrants: red top-left, green top-right, blue bottom-left, yellow
    /// bottom-right.
    public static func quadrants(width: Int = 200, height: Int = 300) -> Data {
        png(width: width, height: height) { x, y in
            switch (x < width / 2, y < height / 2) {
            case (true, true): red
            case (false, true): green
            case (true, false): blue
            case (false, false): yellow
            }
        }
    }

    /// One colour everywhere.
    public static func solid(_ color: RGB, width: Int = 200, height: Int = 300) -> Data {
        png(width: width, height: height) { _, _ in color }
    }

    /// A comic book archive of `pages` PNG pages, right-to-left when `rightToLeft` (ComicInfo
    /// `Manga=YesAndRightToLeft`).
    public static func comic(pages: [Data], rightToLeft: Bool = false, title: String = "Test Comic", to path: String) throws {
        var entries = pages.enumerated().map { ZipBuilder.Entry(String(format: "page-%03d.png", $0.offset + 1), $0.element, compression: .stored) }
        let info = """
            <?xml version="1.0"?>
            <ComicInfo><Title>\(title)</Title><PageCount>\(pages.count)</PageCount>\
            <Manga>\(rightToLeft ? "YesAndRightToLeft" : "No")</Manga></ComicInfo>
            """
        entries.append(ZipBuilder.Entry("ComicInfo.xml", info))
        try ZipBuilder.write(entries, to: path)
    }

    private static func pngFile(ihdr: [UInt8], idat: [UInt8]) -> Data {
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", [])
        return Data(file)
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

extension TestImages {
    /// An EPUB of one chapter: a heading, a paragraph, the figure `image` (alt "Four
    /// colours"), then `paragraphsAfter` paragraphs of text.
    public static func epub(figure image: Data, paragraphsAfter: Int = 40, title: String = "Figure Book", to path: String) throws {
        let container = """
            <?xml version="1.0"?>
            <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
            <rootfiles><rootfile full-path="OPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
            """
        let opf = """
            <?xml version="1.0"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:test:figure</dc:identifier>
            <dc:title>\(title)</dc:title><dc:language>en</dc:language><meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata>
            <manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
            <item id="fig" href="images/fig.png" media-type="image/png"/>
            <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/></manifest>
            <spine><itemref idref="c1"/></spine></package>
            """
        let nav = """
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
            <nav epub:type="toc"><ol><li><a href="c1.xhtml">Chapter</a></li></ol></nav></body></html>
            """
        let after = (1...max(1, paragraphsAfter)).map { "<p>Paragraph \($0) after the figure, some words to fill the line.</p>" }.joined()
        let chapter = """
            <html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter</title></head><body>
            <h1>The Figure</h1><p>Text before the figure.</p>
            <p><img src="images/fig.png" alt="Four colours"/></p>\(after)</body></html>
            """
        try ZipBuilder.write([
            .init("mimetype", "application/epub+zip", compression: .stored),
            .init("META-INF/container.xml", container),
            .init("OPS/package.opf", opf),
            .init("OPS/nav.xhtml", nav),
            .init("OPS/c1.xhtml", chapter),
            .init("OPS/images/fig.png", image, compression: .stored),
        ], to: path)
    }
}
