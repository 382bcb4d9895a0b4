import Foundation
import Testing
import TestSupport

/// Hostile files given to the command line: a clear error and a non-zero exit, never a crash,
/// a hang or exit 0.
@Suite struct HostileInputTests {
    let lectern = LecternProcess()

    static let container = """
        <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
        <rootfiles><rootfile full-path="OPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
        """

    static func opf(metadataExtra: String = "", doctype: String = "") -> String {
        """
        <?xml version="1.0"?>\(doctype)
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:title>Hostile \(metadataExtra)</dc:title><dc:identifier id="id">x</dc:identifier><dc:language>en</dc:language>
          </metadata>
          <manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest>
          <spine><itemref idref="c1"/></spine>
        </package>
        """
    }

    func epub(_ entries: [ZipBuilder.Entry]) throws -> String {
        let path = Fixtures.temporaryDirectory("hostile") + "/book.epub"
        try ZipBuilder.write([
            .init("mimetype", "application/epub+zip", compression: .stored),
            .init("META-INF/container.xml", Self.container),
        ] + entries, to: path)
        return path
    }

    func expectCleanFailure(_ path: String, file: String = #fileID, line: Int = #line) throws -> LecternProcess.Result {
        let result = try lectern.run(["check", path], timeout: 60)
        #expect([1, 2, 3].contains(result.status), "exit \(result.status): \(result.stderr)")
        #expect(!result.stderr.isEmpty || result.stdout.contains("FAIL"))
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Stack dump"))
        return result
    }

    @Test func truncatedArchive() throws {
        let whole = Fixtures.bytes(Fixtures.sample("epub/idpf-wasteland.epub"))
        let path = Fixtures.temporaryDirectory("hostile") + "/truncated.epub"
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
        let result = try expectCleanFailure(path)
        #expect(result.status == 2)
    }

    @Test func textFileNamedEPUB() throws {
        let path = Fixtures.temporaryDirectory("hostile") + "/plain.epub"
        try Data("just some text, not a book\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try expectCleanFailure(path).status == 2)
    }

    @Test func emptyFile() throws {
        let path = Fixtures.temporaryDirectory("hostile") + "/empty.epub"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        #expect(try expectCleanFailure(path).status == 2)
    }

    @Test func folderWithoutPublication() throws {
        #expect(try expectCleanFailure(Fixtures.temporaryDirectory("hostile")).status == 2)
    }

    @Test func missingPackageDocument() throws {
        let result = try expectCleanFailure(try epub([]))
        #expect(result.status == 2)
        #expect(result.stderr.contains("package document"))
    }

    @Test func billionLaughsInThePackageDocument() throws {
        let doctype = """
            <!DOCTYPE package [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
            <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
            <!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]>
            """
        let path = try epub([.init("OPS/package.opf", Self.opf(metadataExtra: "&h;", doctype: doctype)),
                             .init("OPS/c1.xhtml", "<html><body><p>x</p></body></html>")])
        let result = try lectern.run(["info", "--json", path], timeout: 60)
        // Either refused or opened without the expansion: never gigabytes of "a".
        #expect(result.stdout.count < 100_000)
        #expect([0, 2].contains(result.status))
    }

    @Test func externalEntityIsNotResolved() throws {
        let doctype = "<!DOCTYPE package [<!ENTITY secret SYSTEM \"file:///etc/passwd\">]>"
        let path = try epub([.init("OPS/package.opf", Self.opf(metadataExtra: "&secret;", doctype: doctype)),
                             .init("OPS/c1.xhtml", "<html><body><p>x</p></body></html>")])
        let result = try lectern.run(["info", "--json", path], timeout: 60)
        #expect(!result.stdout.contains("root:"))
    }

    @Test func escapingHrefsReadNothingOutside() throws {
        let opf = Self.opf().replacingOccurrences(of: "href=\"c1.xhtml\"", with: "href=\"../../../../../../etc/passwd\"")
        let path = try epub([.init("OPS/package.opf", opf)])
        let result = try lectern.run(["check", "--json", path], timeout: 60)
        #expect(result.status == 1)
        #expect(!result.stdout.contains("root:"))
    }

    /// A chapter that inflates to 1 GiB from 1 MB: refused as a zip bomb when the archive is
    /// opened, without inflating it.
    @Test func zipBomb() throws {
        let path = Fixtures.temporaryDirectory("hostile") + "/bomb.epub"
        let builder = """
            import zipfile, sys
            info = zipfile.ZipInfo("OPS/c1.xhtml"); info.compress_type = zipfile.ZIP_DEFLATED
            with zipfile.ZipFile(sys.argv[1], "w") as z:
                z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
                z.writestr("META-INF/container.xml", sys.argv[2], zipfile.ZIP_DEFLATED)
                z.writestr("OPS/package.opf", sys.argv[3], zipfile.ZIP_DEFLATED)
                with z.open(info, "w", force_zip64=True) as f:
                    block = bytes(1 << 20)
                    for _ in range(1024): f.write(block)
            """
        try ZipBuilder.run("/usr/bin/python3", ["-c", builder, path, Self.container, Self.opf()])
        let result = try lectern.run(["check", "--json", path], timeout: 120)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("more than the 1073741824 allowed (a zip bomb?)"), "\(result.stderr)")
    }

    /// Past libxml2's 256 levels of nesting the rest of a chapter used to vanish while `render`
    /// exited 0: it is now laid out flattened, to its last word.
    @Test func deeplyNestedChaptersLoseNothing() throws {
        for depth in [300, 100_000] {
            let chapter = "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>BEFORE</p>"
                + String(repeating: "<div><span>", count: depth) + "DEEP" + String(repeating: "</span></div>", count: depth)
                + "<p>AFTER</p></body></html>"
            let path = try epub([.init("OPS/package.opf", Self.opf()), .init("OPS/c1.xhtml", chapter)])
            let render = try lectern.run(["render", path, "--width", "40"], timeout: 120)
            #expect(render.status == 0, "\(render.stderr)")
            let words = render.stdout.split(whereSeparator: \.isWhitespace)
            #expect(words == ["BEFORE", "DEEP", "AFTER"], "depth \(depth): \(render.stdout.prefix(200))")
        }
    }

    /// 300 central-directory entries sharing one 100 MB deflate stream used to run for minutes
    /// and exit 0: it is refused when the archive is opened (the inflation allowance; the
    /// overlap itself is checked in the ZIP library's tests).
    @Test func overlappingEntryZipBombIsRefusedAtOnce() throws {
        let path = Fixtures.temporaryDirectory("hostile") + "/bomb.epub"
        try ZipBombs.overlapping(count: 300, size: 100 << 20, mimetype: "application/epub+zip", to: path)
        let result = try expectCleanFailure(path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("a zip bomb"), "\(result.stderr)")
        let info = try lectern.run(["info", path])
        #expect(info.status == 2, "\(info.stderr)")
    }

    /// EPUB (OCF 3.3) allows only stored and Deflate entries: a bzip2 chapter is an error,
    /// even though libzip could read it. A comic book archive keeps reading what libzip reads.
    @Test func epubEntriesCompressedWithBzip2AreRefused() throws {
        let path = try epub([.init("OPS/package.opf", Self.opf())])
        let folder = Fixtures.temporaryDirectory("bzip2")
        try FileManager.default.createDirectory(atPath: folder + "/OPS", withIntermediateDirectories: true)
        let chapter = "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body>" + String(repeating: "<p>Some text.</p>", count: 200) + "</body></html>"
        try Data(chapter.utf8).write(to: URL(fileURLWithPath: folder + "/OPS/c1.xhtml"))
        try ZipBuilder.run("/usr/bin/zip", ["-q", "-Z", "bzip2", path, "OPS/c1.xhtml"], in: folder)
        let listing = try ZipBuilder.run("/usr/bin/unzip", ["-v", path])
        try #require(listing.contains("BZip2"), "zip wrote no bzip2 entry: \(listing)")
        let result = try expectCleanFailure(path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("OPS/c1.xhtml") && result.stderr.contains("bzip2 (ZIP method 12)"), "\(result.stderr)")

        let comic = Fixtures.temporaryDirectory("bzip2") + "/comic"
        try FileManager.default.createDirectory(atPath: comic, withIntermediateDirectories: true)
        try ZipBuilder.run("/usr/bin/unzip", ["-q", Fixtures.sample("cbz/derived-page-blanche-excerpt.cbz"), "-d", comic])
        try ZipBuilder.run("/usr/bin/zip", ["-q", "-r", "-Z", "bzip2", "../comic.cbz", "."], in: comic)
        let check = try lectern.run(["check", comic + "/../comic.cbz"])
        #expect(check.status == 0, "\(check.stderr)")
    }
}
