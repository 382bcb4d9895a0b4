import Foundation
import LibZip
@testable import Shared
import Testing
import TestSupport

/// Hostile and odd input: every case ends in a format, nil or a clear error, never a crash, a
/// hang or a read of a whole large file.
@Suite struct HostileSniffingTests {
    let scratch = SniffingScratch()
    let sniffer = FormatSniffer()
    let retriever = AssetRetriever()
    typealias Entry = ZipBuilder.Entry

    /// Counts what the sniffer asks of a container.
    final class CountingContainer: SniffedContainer {
        let base: any SniffedContainer
        private(set) var requestedBytes = 0
        private(set) var returnedBytes = 0

        init(_ base: any SniffedContainer) { self.base = base }

        var entryPaths: [String]? { base.entryPaths }
        func contains(_ path: String) -> Bool { base.contains(path) }
        func read(_ path: String, maxLength: Int) -> SniffedEntry {
            requestedBytes += maxLength
            let result = base.read(path, maxLength: maxLength)
            if case .data(let data) = result { returnedBytes += data.count }
            return result
        }
    }

    func retrieveError(_ path: String) -> AssetError? {
        do {
            _ = try retriever.retrieve(path: path)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Empty and plain files

    @Test func emptyFileIsUnknown() throws {
        let path = try scratch.file("empty.epub", Data())
        #expect(try sniffer.sniff(file: path) == nil)
        guard case .unsupportedFormat(path, detected: nil) = retrieveError(path) else {
            Issue.record("expected unsupportedFormat, got \(String(describing: retrieveError(path)))")
            return
        }
    }

    @Test(arguments: ["book.epub", ".epub"])
    func plainTextNamedEPUBIsUnknown(_ name: String) throws {
        let path = try scratch.file(name, "This is not an EPUB, whatever its name says.\n")
        #expect(try sniffer.sniff(file: path) == nil)
        let error = try #require(retrieveError(path))
        #expect(error.userMessage == "\(path) is not a publication format Lectern knows")
    }

    @Test func folderWithoutMarkersIsUnknown() throws {
        let folder = try scratch.folder("stuff", ["notes.txt": "hello", "sub/more.txt": "x"])
        #expect(try sniffer.sniff(file: folder) == nil)
        guard case .unsupportedFormat(folder, detected: nil) = retrieveError(folder) else {
            Issue.record("expected unsupportedFormat")
            return
        }
    }

    @Test func emptyZipIsAPlainZip() throws {
        let path = try scratch.file("empty.epub", Data([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)))
        guard case .unsupportedFormat(path, detected: let detected?) = retrieveError(path) else {
            Issue.record("expected unsupportedFormat")
            return
        }
        #expect(detected.kind == .zip)
    }

    // MARK: - Damaged archives

    @Test func truncatedZipIsDamaged() throws {
        let sample = Fixtures.bytes(Fixtures.sample("epub/idpf-wasteland.epub"))
        let path = try scratch.file("half.epub", sample.prefix(sample.count / 2))
        guard case .damaged(path, let reason) = retrieveError(path) else {
            Issue.record("expected damaged, got \(String(describing: retrieveError(path)))")
            return
        }
        #expect(reason.contains("central directory"))
        #expect(throws: AssetError.self) { try sniffer.sniff(file: path) }
    }

    @Test func garbageAfterZipMagicIsDamaged() throws {
        let path = try scratch.file("garbage.cbz", Data([0x50, 0x4B, 0x03, 0x04] + (0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7) }))
        guard case .damaged = retrieveError(path) else {
            Issue.record("expected damaged, got \(String(describing: retrieveError(path)))")
            return
        }
    }

    // MARK: - Large entries and documents

    @Test func hugeMimetypeIsNotReadWhole() throws {
        var junk = Data("application/epub+zip".utf8)
        junk.append(Data(repeating: UInt8(ascii: "j"), count: 5 << 20))
        let path = try scratch.zip("junk.epub", [Entry("mimetype", junk),
                                                 Entry("META-INF/container.xml", SniffingSamples.containerXML)])
        let archive = try ZipArchive(path: path)
        defer { archive.close() }
        let counting = CountingContainer(ZipSniffedContainer(archive: archive))
        let format = ContainerFormatSniffer(limits: .default, hints: FormatHints(fileExtension: "epub")).format(of: counting)
        #expect(format?.kind == .zip)
        #expect(counting.returnedBytes <= SniffingLimits.default.maxDocumentLength)
        // The mimetype itself was refused on its declared size, before any read.
        #expect(counting.returnedBytes < 1 << 20)
        #expect(try sniffer.sniff(file: path)?.kind == .zip)
    }

    @Test func hugeManifestIsNotParsed() throws {
        let padding = String(repeating: " ", count: 5 << 20)
        let manifest = SniffingSamples.manifest(readingOrder: SniffingSamples.audioReadingOrder) + padding
        let path = try scratch.zip("big.unknown", [Entry("manifest.json", manifest)])
        let archive = try ZipArchive(path: path)
        defer { archive.close() }
        let counting = CountingContainer(ZipSniffedContainer(archive: archive))
        // Too large to classify: still a package, the generic one.
        #expect(ContainerFormatSniffer(limits: .default, hints: FormatHints()).format(of: counting)?.kind == .webpub)
        #expect(counting.returnedBytes == 0)
    }

    @Test func smallLimitsAreHonoured() throws {
        let limits = SniffingLimits(headLength: 16, maxDocumentLength: 64, maxMimetypeLength: 8)
        let small = FormatSniffer(limits: limits)
        let path = try scratch.file("manifest.json", SniffingSamples.manifest(readingOrder: SniffingSamples.audioReadingOrder))
        #expect(try small.sniff(file: path) == nil)
        #expect(try FormatSniffer().sniff(file: path)?.kind == .audiobookManifest)
    }

    @Test func jsonLargerThanTheLimitIsNotClassified() throws {
        var json = Data("{\"message\": \"".utf8)
        json.append(Data(repeating: UInt8(ascii: "a"), count: SniffingLimits.default.maxDocumentLength))
        json.append(Data("\"}".utf8))
        let path = try scratch.file("large.json", json)
        #expect(try sniffer.sniff(file: path) == nil)
    }

    // MARK: - Parser bombs

    @Test(arguments: [10_000, 300])
    func deeplyNestedJSON(_ depth: Int) throws {
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let objects = String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(sniffer.sniff(bytes: Array(arrays.utf8)) == nil)
        #expect(sniffer.sniff(bytes: Array(objects.utf8)) == nil)
        let path = try scratch.file("deep.json", objects)
        #expect(try sniffer.sniff(file: path) == nil)
    }

    @Test func deeplyNestedXML() {
        let depth = 10_000
        let xml = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        // libxml2 refuses more than 256 levels; recovery keeps what came before.
        #expect(sniffer.sniff(bytes: Array(xml.utf8))?.kind == .xml)
    }

    @Test func invalidUTF8() throws {
        let json: [UInt8] = Array("{\"title\": \"".utf8) + [0xC3, 0x28, 0xFF] + Array("\"}".utf8)
        #expect(sniffer.sniff(bytes: json) == nil)
        #expect(sniffer.sniff(bytes: [0xFF, 0xFE, 0xFD, 0x80, 0x81, 0xC0]) == nil)
        let mimetype = try scratch.zip("bad.unknown", [Entry("mimetype", Data([0xFF, 0xFE] + Array("application/epub+zip".utf8)))])
        #expect(try sniffer.sniff(file: mimetype)?.kind == .zip)
    }

    static let billionLaughs = """
        <?xml version="1.0"?>
        <!DOCTYPE lolz [
          <!ENTITY lol "lol">
          <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
          <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
          <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
          <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
          <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
          <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
          <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
          <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
        ]>
        """

    @Test func billionLaughsInContent() {
        let xml = Self.billionLaughs + "\n<lolz>&lol9;</lolz>"
        #expect(sniffer.sniff(bytes: Array(xml.utf8))?.kind == .xml)
    }

    @Test func billionLaughsInAnOPDSLinkAttribute() {
        let xml = Self.billionLaughs.replacingOccurrences(of: "lolz", with: "feed")
            + "\n<feed xmlns=\"http://www.w3.org/2005/Atom\"><link rel=\"&lol9;\" href=\"/x\"/></feed>"
        // libxml2 refuses the amplification: what is left is no OPDS feed, and no gigabytes.
        #expect(sniffer.sniff(bytes: Array(xml.utf8))?.kind == .xml)
    }

    @Test func billionLaughsInEncryptionXML() throws {
        let xml = Self.billionLaughs.replacingOccurrences(of: "lolz", with: "encryption")
            + "\n<encryption xmlns=\"urn:oasis:names:tc:opendocument:xmlns:container\">&lol9;</encryption>"
        let path = try scratch.zip("bomb.unknown", SniffingSamples.epub([Entry("META-INF/encryption.xml", xml)]))
        #expect(SniffingExpectation.kind(.epub).matches(try sniffer.sniff(file: path)))
    }

    @Test func externalEntitiesAreNotLoaded() throws {
        let secret = try scratch.file("secret.txt", "http://opds-spec.org/acquisition")
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE feed [<!ENTITY xxe SYSTEM "file://\(secret)">]>
            <feed xmlns="http://www.w3.org/2005/Atom"><link rel="&xxe;" href="/x"/></feed>
            """
        #expect(sniffer.sniff(bytes: Array(xml.utf8))?.kind != .opds1Feed)
    }

    // MARK: - Links and special files

    @Test func symlinkToAMissingFileIsNotFound() throws {
        let link = scratch.root + "/dangling.epub"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: scratch.root + "/nowhere.epub")
        guard case .notFound(link) = retrieveError(link) else {
            Issue.record("expected notFound, got \(String(describing: retrieveError(link)))")
            return
        }
    }

    @Test func fifoIsRefusedWithoutBlocking() throws {
        let path = scratch.root + "/pipe.epub"
        #expect(mkfifo(path, 0o600) == 0)
        guard case .unreadable(path, let reason) = retrieveError(path) else {
            Issue.record("expected unreadable, got \(String(describing: retrieveError(path)))")
            return
        }
        #expect(reason == "not a regular file")
    }
}
