import Foundation
import LibZip
@testable import Shared
import Testing
import TestSupport

/// The ZIP and folder rules, on packages built for each case.
@Suite struct ContainerSniffingTests {
    let scratch = SniffingScratch()
    let sniffer = FormatSniffer()
    typealias Entry = ZipBuilder.Entry

    func sniffZip(_ entries: [Entry], name: String = "package.unknown") throws -> Format? {
        try sniffer.sniff(file: scratch.zip(name, entries))
    }

    // MARK: - EPUB

    @Test func mimetypeLastDeflatedWithTrailingNewlineIsEPUB() throws {
        let entries = [Entry("META-INF/container.xml", SniffingSamples.containerXML),
                       Entry("EPUB/package.opf", SniffingSamples.opf),
                       Entry("mimetype", "application/epub+zip\n", compression: .deflated)]
        #expect(SniffingExpectation.kind(.epub).matches(try sniffZip(entries)))
    }

    @Test func mimetypeIsTrimmedOfSurroundingWhitespace() throws {
        let entries = [Entry("mimetype", "  application/epub+zip \r\n", compression: .stored),
                       Entry("META-INF/container.xml", SniffingSamples.containerXML)]
        #expect(try sniffZip(entries)?.kind == .epub)
    }

    @Test func anotherMimetypeIsNotEPUBEvenWithAContainer() throws {
        let entries = [Entry("mimetype", "application/vnd.oasis.opendocument.spreadsheet", compression: .stored),
                       Entry("META-INF/container.xml", SniffingSamples.containerXML)]
        #expect(try sniffZip(entries)?.kind == .zip)
        // An OpenDocument text says what it is the same way: read through pandoc (#34).
        let text = [Entry("mimetype", "application/vnd.oasis.opendocument.text", compression: .stored),
                    Entry("META-INF/manifest.xml", "<manifest/>")]
        #expect(try sniffZip(text)?.kind == .odt)
    }

    @Test func missingMimetypeFallsBackOnTheContainer() throws {
        let entries = [Entry("META-INF/container.xml", SniffingSamples.containerXML),
                       Entry("EPUB/package.opf", SniffingSamples.opf)]
        #expect(try sniffZip(entries)?.kind == .epub)
    }

    @Test func encryptedMimetypeFallsBackOnTheContainer() throws {
        let path = try scratch.encryptedZip("locked.unknown", SniffingSamples.epub())
        #expect(SniffingExpectation.kind(.epub).matches(try sniffer.sniff(file: path)))
    }

    @Test func encryptedArchiveWithoutContainerIsNotEPUB() throws {
        let path = try scratch.encryptedZip("locked.unknown", [Entry("mimetype", "application/epub+zip")])
        #expect(try sniffer.sniff(file: path)?.kind == .zip)
    }

    @Test func licenseInMetaINFIsLCP() throws {
        let format = try sniffZip(SniffingSamples.epub([Entry("META-INF/license.lcpl", SniffingSamples.license)]))
        #expect(SniffingExpectation.kind(.epub, lcp: true).matches(format))
    }

    @Test func lcpRetrievalMethodWithoutLicenseIsLCP() throws {
        let xml = SniffingSamples.encryptionXML(keyInfo: SniffingSamples.lcpKeyInfo)
        let format = try sniffZip(SniffingSamples.epub([Entry("META-INF/encryption.xml", xml)]))
        #expect(SniffingExpectation.kind(.epub, lcp: true).matches(format))
    }

    @Test func rightsXMLIsAdept() throws {
        let format = try sniffZip(SniffingSamples.epub([Entry("META-INF/rights.xml", "<rights xmlns=\"http://ns.adobe.com/adept\"/>")]))
        #expect(SniffingExpectation.kind(.epub, adept: true).matches(format))
    }

    @Test func adeptResourceInEncryptionIsAdept() throws {
        let xml = SniffingSamples.encryptionXML(keyInfo: SniffingSamples.adeptKeyInfo)
        let format = try sniffZip(SniffingSamples.epub([Entry("META-INF/encryption.xml", xml)]))
        #expect(SniffingExpectation.kind(.epub, adept: true).matches(format))
    }

    @Test(arguments: ["http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC",
                      "http://www.w3.org/2001/04/xmlenc#aes256-cbc"])
    func encryptionWithoutKeyReferenceIsNoDRM(_ algorithm: String) throws {
        let xml = SniffingSamples.encryptionXML(keyInfo: "", algorithm: algorithm)
        let format = try sniffZip(SniffingSamples.epub([Entry("META-INF/encryption.xml", xml)]))
        #expect(SniffingExpectation.kind(.epub).matches(format))
    }

    @Test func fontObfuscationSampleIsNoDRM() throws {
        let format = try sniffer.sniff(file: Fixtures.sample("epub/idpf-wasteland-woff-obf.epub"))
        #expect(SniffingExpectation.kind(.epub).matches(format))
    }

    // MARK: - Readium packages

    @Test func pdfPackageWithLicenseIsLCPDF() throws {
        let entries = [Entry("manifest.json", SniffingSamples.manifest(readingOrder: SniffingSamples.pdfReadingOrder)),
                       Entry("publication.pdf", "%PDF-1.4"), Entry("license.lcpl", SniffingSamples.license)]
        #expect(SniffingExpectation.kind(.lcpdf, lcp: true).matches(try sniffZip(entries)))
    }

    @Test func pdfProfileWithEncryptedLinksIsLCPDF() throws {
        let readingOrder = """
            [{"href": "a.bin", "properties": {"encrypted": {"scheme": "http://readium.org/2014/01/lcp"}}}]
            """
        let manifest = SniffingSamples.manifest(
            readingOrder: readingOrder, metadata: "\"conformsTo\": \"https://readium.org/webpub-manifest/profiles/pdf\"")
        #expect(SniffingExpectation.kind(.lcpdf, lcp: true).matches(try sniffZip([Entry("manifest.json", manifest)])))
    }

    @Test func clearPDFPackageIsWebPub() throws {
        let entries = [Entry("manifest.json", SniffingSamples.manifest(readingOrder: SniffingSamples.pdfReadingOrder)),
                       Entry("publication.pdf", "%PDF-1.4")]
        #expect(SniffingExpectation.kind(.webpub).matches(try sniffZip(entries)))
    }

    @Test func lcpdfExtensionRefinesAPackage() throws {
        let entries = [Entry("manifest.json", SniffingSamples.manifest(readingOrder: SniffingSamples.pdfReadingOrder)),
                       Entry("publication.pdf", "%PDF-1.4")]
        #expect(SniffingExpectation.kind(.lcpdf, lcp: true).matches(try sniffZip(entries, name: "book.lcpdf")))
    }

    @Test func lcpdfExtensionDoesNotOverrideADeclaredAudiobook() throws {
        let entries = [Entry("manifest.json", SniffingSamples.manifest(
            readingOrder: SniffingSamples.audioReadingOrder,
            metadata: "\"conformsTo\": \"https://readium.org/webpub-manifest/profiles/audiobook\""))]
        #expect(try sniffZip(entries, name: "book.lcpdf")?.kind == .audiobook)
    }

    @Test func audioPackageWithLicenseIsLCPA() throws {
        let entries = [Entry("manifest.json", SniffingSamples.manifest(readingOrder: SniffingSamples.audioReadingOrder)),
                       Entry("license.lcpl", SniffingSamples.license)]
        #expect(SniffingExpectation.kind(.lcpa, lcp: true).matches(try sniffZip(entries)))
    }

    @Test(arguments: ["book.lcpa", "book.lcpau"])
    func lcpaExtensionsRefineAnAudioPackage(_ name: String) throws {
        let entries = [Entry("manifest.json", SniffingSamples.manifest(readingOrder: SniffingSamples.audioReadingOrder))]
        #expect(SniffingExpectation.kind(.lcpa, lcp: true).matches(try sniffZip(entries, name: name)))
    }

    @Test func imagePackageWithLicenseIsLCPDivina() throws {
        let entries = [Entry("manifest.json", SniffingSamples.manifest(readingOrder: SniffingSamples.imageReadingOrder)),
                       Entry("license.lcpl", SniffingSamples.license)]
        #expect(SniffingExpectation.kind(.divina, lcp: true).matches(try sniffZip(entries)))
    }

    @Test func legacySpineIsAManifestToo() throws {
        let manifest = "{\"metadata\": {\"title\": \"T\"}, \"spine\": \(SniffingSamples.audioReadingOrder)}"
        #expect(try sniffZip([Entry("manifest.json", manifest)])?.kind == .audiobook)
    }

    @Test func manifestThatIsNoRWPMIsAPlainZip() throws {
        // A browser extension has a root manifest.json too.
        let entries = [Entry("manifest.json", "{\"manifest_version\": 3, \"name\": \"x\"}"), Entry("background.js", "1")]
        #expect(try sniffZip(entries)?.kind == .zip)
    }

    @Test func encryptedManifestStillMakesAPackageNamedByTheExtension() throws {
        let manifest = SniffingSamples.manifest(readingOrder: SniffingSamples.audioReadingOrder)
        let path = try scratch.encryptedZip("book.audiobook", [Entry("manifest.json", manifest)])
        #expect(try sniffer.sniff(file: path)?.kind == .audiobook)
    }

    // MARK: - LPF, CBZ, ZAB

    @Test func publicationJSONWithW3CContextIsLPF() throws {
        let json = "{\"@context\": [\"https://schema.org\", \"https://www.w3.org/ns/pub-context\"], \"type\": \"Book\"}"
        #expect(try sniffZip([Entry("publication.json", json), Entry("c1.html", "<p/>")])?.kind == .lpf)
    }

    @Test func publicationJSONWithoutContextIsAPlainZip() throws {
        #expect(try sniffZip([Entry("publication.json", "{\"name\": \"x\"}")])?.kind == .zip)
    }

    @Test func comicIgnoresHiddenEntriesFoldersAndThumbnails() throws {
        let entries = [Entry("Comic/", Data()), Entry("Comic/001.JPG", "x"), Entry("Comic/002.webp", "x"),
                       Entry("Comic/.DS_Store", "x"), Entry("__MACOSX/Comic/._001.JPG", "x"),
                       Entry(".hidden/readme.txt", "x"), Entry("Comic/Thumbs.db", "x"), Entry("ComicInfo.xml", "<ComicInfo/>")]
        #expect(try sniffZip(entries)?.kind == .cbz)
    }

    @Test func comicWithACreditsFileNeedsTheExtension() throws {
        let entries = [Entry("001.jpg", "x"), Entry("002.jpg", "x"), Entry("credits.txt", "x")]
        #expect(try sniffZip(entries, name: "comic.zip")?.kind == .zip)
        #expect(try sniffZip(entries, name: "comic.cbz")?.kind == .cbz)
    }

    @Test func metadataAloneIsNoComic() throws {
        #expect(try sniffZip([Entry("ComicInfo.xml", "<ComicInfo/>")])?.kind == .zip)
    }

    @Test func audioWithCoverAndPlaylistIsZAB() throws {
        let entries = [Entry("Book/01.mp3", "x"), Entry("Book/02.MP3", "x"), Entry("Book/cover.jpg", "x"),
                       Entry("Book/playlist.m3u", "x")]
        #expect(try sniffZip(entries)?.kind == .zab)
    }

    @Test func imagesAndAudioTogetherAreAudioBookNotComic() throws {
        #expect(try sniffZip([Entry("01.mp3", "x"), Entry("01.jpg", "x")])?.kind == .zab)
    }

    @Test func emptyArchiveIsAPlainZip() throws {
        let path = try scratch.file("empty.zip", Data([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)))
        #expect(try sniffer.sniff(file: path)?.kind == .zip)
    }

    // MARK: - An archive already open

    @Test func openArchiveIsSniffedAndStaysUsable() throws {
        let archive = try ZipArchive(path: Fixtures.sample("lcp/swifttoolkit-epub-lcp.epub"))
        defer { archive.close() }
        #expect(SniffingExpectation.kind(.epub, lcp: true).matches(sniffer.sniff(archive: archive)))
        let license = try #require(archive.entry(at: "META-INF/license.lcpl"))
        #expect(try archive.read(license).count == Int(license.size))
    }

    @Test func openLCPDFArchive() throws {
        let archive = try ZipArchive(path: Fixtures.sample("lcp/swifttoolkit-daisy.lcpdf"))
        defer { archive.close() }
        #expect(SniffingExpectation.kind(.lcpdf, lcp: true).matches(sniffer.sniff(archive: archive)))
    }

    // MARK: - Folders

    @Test func explodedEPUBFolder() throws {
        let folder = try scratch.folder("book", ["mimetype": "application/epub+zip",
                                                 "META-INF/container.xml": SniffingSamples.containerXML])
        #expect(SniffingExpectation.kind(.epub).matches(sniffer.sniff(folder: folder)))
    }

    @Test func explodedEPUBFolderWithoutMimetype() throws {
        let folder = try scratch.folder("book", ["META-INF/container.xml": SniffingSamples.containerXML])
        #expect(sniffer.sniff(folder: folder)?.kind == .epub)
    }

    @Test func explodedLCPEPUBFolder() throws {
        let folder = try scratch.folder("book", ["mimetype": "application/epub+zip",
                                                 "META-INF/container.xml": SniffingSamples.containerXML,
                                                 "META-INF/license.lcpl": SniffingSamples.license])
        #expect(SniffingExpectation.kind(.epub, lcp: true).matches(sniffer.sniff(folder: folder)))
    }

    @Test func explodedAudiobookFolder() throws {
        let folder = try scratch.folder("book", ["manifest.json": SniffingSamples.manifest(readingOrder: SniffingSamples.audioReadingOrder),
                                                 "track1.mp3": "x"])
        #expect(sniffer.sniff(folder: folder)?.kind == .audiobook)
    }

    @Test func folderOfImagesIsNotAPublication() throws {
        let folder = try scratch.folder("pictures", ["001.jpg": "x", "002.jpg": "x"])
        #expect(sniffer.sniff(folder: folder) == nil)
    }
}
