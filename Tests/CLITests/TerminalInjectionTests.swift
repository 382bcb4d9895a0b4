import Foundation
import Testing
import TestSupport

/// File names, metadata and tables of contents carry escape sequences (OSC 52 sets the
/// clipboard, OSC 0 the window title, CSI clears and recolours): every command shows them,
/// `cat -v` style, and never writes a byte a terminal would execute — JSON included.
@Suite struct TerminalInjectionTests {
    let lectern = LecternProcess()
    let payload = TerminalSafety.payload
    let shown = TerminalSafety.shownPayload

    func expectInert(_ result: LecternProcess.Result, showing: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) {
        let controls = TerminalSafety.executableControls(in: result.stdout + result.stderr)
        #expect(controls.isEmpty, "executable controls \(controls.map { String($0.value, radix: 16) }): \(result.stdout)\(result.stderr)",
                sourceLocation: sourceLocation)
        if showing {
            #expect((result.stdout + result.stderr).contains(shown), "\(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    /// A JSON output: no raw control anywhere, and the payload decodes back exactly.
    func expectEscapedJSON(_ result: LecternProcess.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        expectInert(result, showing: false, sourceLocation: sourceLocation)
        #expect(result.json != nil, "\(result.stdout)", sourceLocation: sourceLocation)
        #expect(result.stdout.contains("\\u009b") && result.stdout.contains("\\u001b") && result.stdout.contains("\\u202e"), "\(result.stdout)", sourceLocation: sourceLocation)
        #expect(String(data: try! JSONSerialization.data(withJSONObject: result.json ?? [:]), encoding: .utf8)!.contains("\\u001b"),
                sourceLocation: sourceLocation)
    }

    @Test func fileNames() throws {
        let folder = Fixtures.temporaryDirectory("injection-names")
        let path = folder + "/book" + payload + ".epub"
        try FileManager.default.copyItem(atPath: Fixtures.sample("epub/idpf-wasteland.epub"), toPath: path)
        // The folder listing fits file names to a column (…): inert, if not whole.
        expectInert(try lectern.run([folder]), showing: false)
        expectInert(try lectern.run(["import", path]), showing: false)
        expectInert(try lectern.run(["list"]))
        expectEscapedJSON(try lectern.run(["list", "--json"]))
        expectInert(try lectern.run(["info", folder + "/missing" + payload + ".epub"]))
        expectInert(try lectern.run(["check", folder + "/missing" + payload + ".epub"]))
    }

    func hostileWebPub() throws -> String {
        let title = String(data: try JSONSerialization.data(withJSONObject: [payload]), encoding: .utf8)!.dropFirst().dropLast()
        let manifest = """
            {"metadata": {"title": \(title), "author": {"name": \(title)}, "publisher": \(title), "description": \(title),
                          "belongsTo": {"series": {"name": \(title)}}},
             "readingOrder": [{"href": "c1.html", "type": "text/html", "title": \(title)}],
             "toc": [{"href": "c1.html", "title": \(title), "children": [{"href": "c1.html#a", "title": \(title)}]}]}
            """
        let folder = Fixtures.temporaryDirectory("injection-webpub")
        try ZipBuilder.write([
            .init("manifest.json", manifest),
            .init("c1.html", "<html><body><p>Text.</p></body></html>"),
        ], to: folder + "/book.webpub")
        return folder + "/book.webpub"
    }

    @Test func webPublicationMetadataAndTableOfContents() throws {
        let path = try hostileWebPub()
        let info = try lectern.run(["info", path])
        #expect(info.status == 0, "\(info.stderr)")
        expectInert(info)
        expectEscapedJSON(try lectern.run(["info", "--json", path]))
        expectInert(try lectern.run([(path as NSString).deletingLastPathComponent]), showing: false)
        expectInert(try lectern.run(["import", path]), showing: false)
        expectInert(try lectern.run(["list"]))
        expectEscapedJSON(try lectern.run(["list", "--json"]))
        expectInert(try lectern.run(["check", path]), showing: false)
        expectEscapedJSON(try lectern.run(["check", "--json", path]))
    }

    /// PDF strings in UTF-16BE (the form that carried escapes past other filters).
    @Test func pdfMetadata() throws {
        let path = Fixtures.temporaryDirectory("injection-pdf") + "/meta.pdf"
        let program = #"""
import sys
def text(s): return '<FEFF' + s.encode('utf-16-be').hex().upper() + '>'
payload = sys.argv[2]
content = b'BT /F1 12 Tf 20 100 Td (Hello) Tj ET'
objects = [
    b'<< /Type /Catalog /Pages 2 0 R /Outlines 7 0 R >>',
    b'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    b'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    b'<< /Length %d >>\nstream\n' % len(content) + content + b'\nendstream',
    b'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ('<< /Title %s /Author %s /Subject %s /Keywords %s >>' % (text(payload), text(payload), text(payload), text(payload))).encode(),
    b'<< /Type /Outlines /First 8 0 R /Last 8 0 R /Count 1 >>',
    ('<< /Title %s /Parent 7 0 R /Dest [3 0 R /Fit] >>' % text(payload)).encode(),
]
out = bytearray(b'%PDF-1.7\n')
offsets = []
for number, body in enumerate(objects, 1):
    offsets.append(len(out))
    out += b'%d 0 obj\n' % number + body + b'\nendobj\n'
xref = len(out)
out += b'xref\n0 %d\n0000000000 65535 f \n' % (len(objects) + 1)
for offset in offsets:
    out += b'%010d 00000 n \n' % offset
out += b'trailer\n<< /Size %d /Root 1 0 R /Info 6 0 R >>\nstartxref\n%d\n%%%%EOF\n' % (len(objects) + 1, xref)
open(sys.argv[1], 'wb').write(out)
"""#
        try Command.python(program, [path, payload])
        let info = try lectern.run(["info", path])
        #expect(info.status == 0, "\(info.stderr)")
        expectInert(info)
        expectEscapedJSON(try lectern.run(["info", "--json", path]))
        expectInert(try lectern.run([(path as NSString).deletingLastPathComponent]), showing: false)
    }

    /// Text a PDF's pages hold goes out as it is laid out, with its controls shown.
    @Test func pdfPageTextAndRenderedChapters() throws {
        let folder = Fixtures.temporaryDirectory("injection-render")
        let chapter = "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>x\(payload)y</p></body></html>"
        try ZipBuilder.write([
            .init("mimetype", "application/epub+zip", compression: .stored),
            .init("META-INF/container.xml", HostileInputTests.container),
            .init("OPS/package.opf", HostileInputTests.opf()),
            .init("OPS/c1.xhtml", chapter),
        ], to: folder + "/book.epub")
        let render = try lectern.run(["render", folder + "/book.epub"])
        #expect(render.status == 0, "\(render.stderr)")
        expectInert(render, showing: false)
    }

    /// A usage error quotes the argument it refuses: shown, not executed.
    @Test func argumentsQuotedInUsageErrors() throws {
        let unknown = try lectern.run(["info", "book.epub", payload])
        #expect(unknown.status == 64, "\(unknown.stderr)")
        expectInert(unknown)
        let help = try lectern.run(["info", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE"), "\(help.stdout)")
    }
}
