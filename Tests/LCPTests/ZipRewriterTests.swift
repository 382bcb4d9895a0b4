import Foundation
import LibZip
import Testing
import TestSupport

/// Rewriting a package with a replaced entry: atomic, `mimetype` first and stored, every other
/// entry unchanged.
@Suite struct ZipRewriterTests {
    func entries(_ path: String) throws -> [(name: String, method: UInt16, data: Data)] {
        let archive = try ZipArchive(path: path)
        defer { archive.close() }
        return try archive.entries.map { ($0.path, $0.compressionMethod, try archive.read($0)) }
    }

    @Test func replacingAnEntryMovesMimetypeFirstAndKeepsTheRest() throws {
        let directory = Fixtures.temporaryDirectory("zip-rewrite")
        let path = directory + "/book.epub"
        let big = Data((0..<200_000).map { UInt8($0 % 251) })
        try ZipBuilder.write([
            .init("META-INF/", Data()),
            .init("META-INF/container.xml", "<container/>"),
            .init("META-INF/license.lcpl", "{\"old\":true}"),
            .init("OEBPS/big.bin", big, compression: .deflated),
            .init("OEBPS/stored.bin", big, compression: .stored),
            .init("mimetype", "application/epub+zip", compression: .deflated),
        ], to: path)
        let before = try entries(path)
        let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int

        try ZipRewriter.replaceEntries(in: path, with: [.init(path: "META-INF/license.lcpl", data: Array("{\"new\":true}".utf8))])

        let after = try entries(path)
        #expect(after.map(\.name) == ["mimetype", "META-INF/", "META-INF/container.xml", "META-INF/license.lcpl",
                                      "OEBPS/big.bin", "OEBPS/stored.bin"])
        #expect(after[0].method == 0)
        #expect(after[0].data == Data("application/epub+zip".utf8))
        #expect(after.first { $0.name == "META-INF/license.lcpl" }?.data == Data("{\"new\":true}".utf8))
        for entry in before where entry.name != "META-INF/license.lcpl" && entry.name != "mimetype" {
            let rewritten = try #require(after.first { $0.name == entry.name })
            #expect(rewritten.data == entry.data, "\(entry.name)")
            #expect(rewritten.method == entry.method, "\(entry.name)")
        }
        // A new file, renamed over the old one; no temporary file left behind.
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int != inode)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["book.epub"])
        // `unzip -t` agrees the archive is sound.
        #expect(try ZipBuilder.run("/usr/bin/unzip", ["-tq", path]).contains("No errors"))
    }

    @Test func addingAnEntryToARootPackage() throws {
        let path = Fixtures.temporaryDirectory("zip-rewrite") + "/book.lcpdf"
        try ZipBuilder.write([.init("manifest.json", "{}"), .init("publication.pdf", Data(count: 1000), compression: .stored)], to: path)
        try ZipRewriter.replaceEntries(in: path, with: [.init(path: "license.lcpl", data: Array("{}".utf8))])
        #expect(try entries(path).map(\.name) == ["manifest.json", "publication.pdf", "license.lcpl"])
    }

    @Test func aDamagedArchiveIsLeftAlone() throws {
        let directory = Fixtures.temporaryDirectory("zip-rewrite")
        let path = directory + "/broken.epub"
        try Data("PK\u{3}\u{4} not really a zip".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ZipError.self) {
            try ZipRewriter.replaceEntries(in: path, with: [.init(path: "license.lcpl", data: [1])])
        }
        #expect(Fixtures.bytes(path) == Data("PK\u{3}\u{4} not really a zip".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["broken.epub"])
    }
}
