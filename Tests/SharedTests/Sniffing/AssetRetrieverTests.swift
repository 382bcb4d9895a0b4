import Foundation
@testable import Shared
import Testing
import TestSupport

/// `AssetRetriever.retrieve(path:)`: the leaf fetcher for each kind of asset, and the errors.
@Suite struct AssetRetrieverTests {
    let scratch = SniffingScratch()
    let retriever = AssetRetriever()

    func text(_ fetcher: any Fetcher, _ href: String) -> String? {
        (try? fetcher.get(href: href).read().get()).map { String(decoding: $0, as: UTF8.self) }
    }

    func retrieveError(_ path: String) -> AssetError? {
        do {
            _ = try retriever.retrieve(path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func epubIsReadThroughItsArchive() throws {
        let path = Fixtures.sample("epub/idpf-wasteland.epub")
        let asset = try retriever.retrieve(path: path)
        defer { asset.fetcher.close() }
        #expect(asset.format.kind == .epub)
        #expect(asset.name == "idpf-wasteland.epub")
        #expect(asset.location == path)
        #expect(asset.fetcher is ArchiveFetcher)
        #expect(asset.fetcher.links.contains { $0.href == "EPUB/wasteland.opf" })
        #expect(text(asset.fetcher, "mimetype") == "application/epub+zip")
    }

    @Test func lcpEPUBKeepsItsFlag() throws {
        let asset = try retriever.retrieve(path: Fixtures.sample("lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.epub"))
        defer { asset.fetcher.close() }
        #expect(asset.format.kind == .epub)
        #expect(asset.format.isLCPProtected)
        #expect(text(asset.fetcher, "META-INF/license.lcpl")?.contains("\"provider\"") == true)
    }

    @Test func passwordProtectedEPUBIsAnArchiveAsset() throws {
        let asset = try retriever.retrieve(path: Fixtures.sample("protected-zip/derived-wasteland-winzip-aes256-secret.epub"))
        defer { asset.fetcher.close() }
        #expect(asset.format.kind == .epub)
        #expect(asset.fetcher is ArchiveFetcher)
    }

    @Test func pdfIsServedAtItsFileName() throws {
        let asset = try retriever.retrieve(path: Fixtures.sample("pdf/w3c-wai-dummy.pdf"))
        #expect(asset.format.kind == .pdf)
        #expect(asset.fetcher is FileFetcher)
        #expect(text(asset.fetcher, "w3c-wai-dummy.pdf")?.hasPrefix("%PDF-1.4") == true)
        #expect(asset.fetcher.links.map(\.href) == ["w3c-wai-dummy.pdf"])
    }

    @Test func fileNameWithSpacesIsPercentEncodedInTheHref() throws {
        let path = try scratch.file("My Book.pdf", "%PDF-1.4\n")
        let asset = try retriever.retrieve(path: path)
        #expect(asset.name == "My Book.pdf")
        #expect(text(asset.fetcher, Href.fromPath("My Book.pdf")) == "%PDF-1.4\n")
    }

    @Test func licenseIsServedAtItsFileName() throws {
        let asset = try retriever.retrieve(path: Fixtures.sample("lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.lcpl"))
        #expect(asset.format.kind == .lcpl)
        #expect(text(asset.fetcher, "r2streamerjs-wasteland-otf-obf_LCP_dan.lcpl")?.hasPrefix("{") == true)
    }

    @Test func standaloneManifestExposesItsFolder() throws {
        let manifest = SniffingSamples.manifest(readingOrder: "[{\"href\": \"audio/ch1.mp3\", \"type\": \"audio/mpeg\"}]")
        let path = try scratch.file("book/manifest.json", manifest)
        try scratch.file("book/audio/ch1.mp3", "ID3")
        try scratch.file("secret.txt", "outside")
        let asset = try retriever.retrieve(path: path)
        #expect(asset.format.kind == .audiobookManifest)
        #expect(asset.name == "manifest.json")
        #expect(text(asset.fetcher, asset.name) == manifest)
        #expect(text(asset.fetcher, "audio/ch1.mp3") == "ID3")
        #expect(text(asset.fetcher, "../secret.txt") == nil)
    }

    @Test func pathHelpers() {
        // A manifest given by a bare file name is served from the current folder.
        #expect(AssetRetriever.folder(of: "m.json") == ".")
        #expect(AssetRetriever.folder(of: "/m.json") == "/")
        #expect(AssetRetriever.folder(of: "a/b/m.json") == "a/b")
        #expect(AssetRetriever.fileName(of: "/books/Exploded/") == "Exploded")
        #expect(AssetRetriever.fileName(of: "book.epub") == "book.epub")
        #expect(AssetRetriever.fileName(ofURL: "https://example.com/a/My%20Book.json?x=1#y") == "My Book.json")
        #expect(AssetRetriever.fileName(ofURL: "https://example.com/") == "example.com")
        #expect(AssetRetriever.path(ofFileURL: "file:///tmp/a%20b.epub") == "/tmp/a b.epub")
        #expect(AssetRetriever.path(ofFileURL: "file://localhost/tmp/x.pdf") == "/tmp/x.pdf")
    }

    @Test func explodedEPUBFolderIsServedFromItsRoot() throws {
        let folder = try scratch.folder("Exploded Book", ["mimetype": "application/epub+zip",
                                                          "META-INF/container.xml": SniffingSamples.containerXML,
                                                          "EPUB/package.opf": SniffingSamples.opf])
        let asset = try retriever.retrieve(path: folder + "/")
        #expect(asset.format.kind == .epub)
        #expect(asset.name == "Exploded Book")
        #expect(asset.fetcher is FileFetcher)
        #expect(text(asset.fetcher, "EPUB/package.opf") == SniffingSamples.opf)
        #expect(asset.fetcher.links.map(\.href).contains("META-INF/container.xml"))
    }

    @Test func comicAndAudioArchives() throws {
        let comic = try retriever.retrieve(path: Fixtures.sample("cbz/swifttoolkit-test-comicinfo.cbz"))
        defer { comic.fetcher.close() }
        #expect(comic.format.kind == .cbz)
        let zab = try retriever.retrieve(path: Fixtures.sample("audiobook/swifttoolkit-audiotest.zab"))
        defer { zab.fetcher.close() }
        #expect(zab.format.kind == .zab)
        #expect(zab.fetcher.links.contains { $0.href == "Test%20Audiobook/Latin.mp3" })
    }

    // MARK: - Errors

    @Test func missingPathIsNotFound() {
        let path = scratch.root + "/missing.epub"
        guard case .notFound(path) = retrieveError(path) else {
            Issue.record("expected notFound")
            return
        }
        #expect(retrieveError(path)?.userMessage == "no such file: \(path)")
    }

    @Test(.enabled(if: getuid() != 0, "root reads a chmod 000 file"))
    func unreadableFile() throws {
        let path = try scratch.file("locked.epub", "x")
        #expect(chmod(path, 0) == 0)
        defer { chmod(path, 0o600) }
        guard case .unreadable(path, let reason) = retrieveError(path) else {
            Issue.record("expected unreadable, got \(String(describing: retrieveError(path)))")
            return
        }
        #expect(reason == "permission denied")
    }

    @Test(arguments: [
        ("format-sniffing/opds1-feed.unknown", Format.Kind.opds1Feed, "an OPDS 1 catalog feed"),
        ("format-sniffing/opds2-feed.json", .opds2Feed, "an OPDS 2 catalog feed"),
        ("webpub/swifttoolkit-opds2-publication.json", .opds2Publication, "an OPDS 2 publication entry"),
        ("format-sniffing/unknown.zip", .zip, "a ZIP archive"),
        ("format-sniffing/html.unknown", .html, "an HTML document"),
        ("format-sniffing/json.unknown", .json, "a JSON document"),
        ("format-sniffing/lpf-index-html.unknown", .lpf, "a W3C Lightweight Packaging Format file"),
    ])
    func recognisedNonPublication(_ sample: String, _ kind: Format.Kind, _ phrase: String) throws {
        let path = Fixtures.sample(sample)
        guard case .unsupportedFormat(path, detected: let detected?) = retrieveError(path) else {
            Issue.record("expected unsupportedFormat with a detected format")
            return
        }
        #expect(detected.kind == kind)
        #expect(retrieveError(path)?.userMessage == "\(path) is \(phrase), not a publication")
    }

    @Test func unknownContent() {
        let path = Fixtures.sample("format-sniffing/unknown")
        guard case .unsupportedFormat(path, detected: nil) = retrieveError(path) else {
            Issue.record("expected unsupportedFormat without a detected format")
            return
        }
    }

    @Test func damagedArchiveMessageNamesTheFile() throws {
        let sample = Fixtures.bytes(Fixtures.sample("cbz/derived-page-blanche-excerpt.cbz"))
        let path = try scratch.file("cut.cbz", sample.prefix(4096))
        let message = try #require(retrieveError(path)).userMessage
        #expect(message.hasPrefix("\(path) is damaged: "))
    }

    @Test func fileURLsAreLocalPaths() throws {
        let path = try scratch.file("a b.pdf", "%PDF-1.4\n")
        let asset = try retriever.retrieve(url: "file://" + path.replacingOccurrences(of: " ", with: "%20"))
        #expect(asset.format.kind == .pdf)
        #expect(asset.location == path)
    }

    @Test func otherSchemesAreRefused() {
        #expect(throws: AssetError.self) { try retriever.retrieve(url: "ftp://example.com/book.epub") }
    }
}
