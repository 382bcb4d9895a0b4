import Foundation
import Testing
import TestSupport

/// The picture libraries (gdk-pixbuf, libchafa and glib, about 4 MB) are loaded when a picture
/// is about to be drawn, not because a book has an image somewhere (#28): a book whose first
/// page has no picture does not map them at that page; the page of its figure does. Read from
/// /proc/PID/maps of the lectern in the pane.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct PictureLibrariesUITests {
    static let pictureLibraries = ["libgdk_pixbuf", "libchafa"]

    /// A book with a cover image (not in the reading order) and one figure after `paragraphs`
    /// paragraphs: several screens past the first page.
    static func book(paragraphs: Int = 120) throws -> String {
        let path = Fixtures.temporaryDirectory("ui-picture-libraries") + "/late-figure.epub"
        let opf = """
            <?xml version="1.0"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:test:late-figure</dc:identifier>
            <dc:title>Late Figure</dc:title><dc:language>en</dc:language><meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata>
            <manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
            <item id="cover" href="images/cover.png" media-type="image/png" properties="cover-image"/>
            <item id="fig" href="images/fig.png" media-type="image/png"/>
            <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/></manifest>
            <spine><itemref idref="c1"/></spine></package>
            """
        let nav = """
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
            <nav epub:type="toc"><ol><li><a href="c1.xhtml">Chapter</a></li></ol></nav></body></html>
            """
        let before = (1...paragraphs).map { "<p>Paragraph \($0) before the figure.</p>" }.joined()
        let chapter = """
            <html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter</title></head><body>
            <h1>The Late Figure</h1>\(before)<p><img src="images/fig.png" alt="Four colours"/></p><p>The end.</p></body></html>
            """
        try ZipBuilder.write([
            .init("mimetype", "application/epub+zip", compression: .stored),
            .init("META-INF/container.xml", TestEPUBs.containerXML),
            .init("OPS/package.opf", opf),
            .init("OPS/nav.xhtml", nav),
            .init("OPS/c1.xhtml", chapter),
            .init("OPS/images/cover.png", TestImages.quadrants(width: 60, height: 90), compression: .stored),
            .init("OPS/images/fig.png", TestImages.quadrants(width: 200, height: 120), compression: .stored),
        ], to: path)
        return path
    }

    /// The picture libraries mapped by the lectern in `tmux`'s pane.
    static func mappedPictureLibraries(_ tmux: TmuxSession) throws -> [String] {
        let pid = try tmux.tmux(["display-message", "-p", "-t", tmux.session, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
        #expect(executable.hasSuffix("/lectern"), "the pane's process \(pid) is \(executable)")
        // Read to its end: a procfs file says it is empty, and a read sized by that stops early.
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/maps"))
        defer { try? handle.close() }
        let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        #expect(maps.contains("lectern"), "\(maps.prefix(300))")
        return pictureLibraries.filter { maps.contains($0) }
    }

    @Test func aBookWhoseFirstPageHasNoPictureDoesNotLoadThemUntilItsFigure() throws {
        let tmux = try PictureUITests.start(try Self.book())
        defer { tmux.close() }
        _ = try tmux.waitUntilSettled("the first page and its page count") { $0.contains("Paragraph 1 before") && $0.contains("%") }
        #expect(try Self.mappedPictureLibraries(tmux).isEmpty, "loaded at a first page with no picture")
        // To the end of the chapter: the figure's page draws it, which needs them.
        try tmux.press("G")
        _ = try tmux.waitFor("[image: Four colours]")
        try tmux.waitUntil("the picture libraries mapped") { _ in (try? Self.mappedPictureLibraries(tmux).count) == Self.pictureLibraries.count }
    }

    @Test func theWastelandSampleDoesNotLoadThemAtItsFirstPage() throws {
        let tmux = try PictureUITests.start(UIFixtures.sample("idpf-wasteland.epub"))
        defer { tmux.close() }
        _ = try tmux.waitUntilSettled("the first page") { $0.contains("%") }
        #expect(try Self.mappedPictureLibraries(tmux).isEmpty, "loaded at a first page with no picture")
    }
}
