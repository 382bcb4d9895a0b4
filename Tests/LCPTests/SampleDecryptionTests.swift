import Foundation
import LCP
import LibCrypto
import Shared
import Streamer
import Testing
import TestSupport

/// Every encrypted resource of the public samples decrypts to the expected bytes (lcp.md §20,
/// the samples README): through the decryptor alone, then through the whole opener.
@Suite struct SampleDecryptionTests {
    /// The decrypting fetcher of a sample, with the links `encryption.xml` describes.
    func decrypting(_ vector: SampleVector) throws -> (fetcher: any Fetcher, links: [Link]) {
        let json = String(decoding: try vector.licenseData(), as: UTF8.self)
        let client = BasicProfileLCPClient()
        let context = try client.createContext(jsonLicense: json, hashedPassphrase: BasicProfileLCPClient.userKey(passphrase: vector.passphrase),
                                               pemCrl: nil)
        let archive = try ArchiveFetcher(path: vector.path)
        let document = try EPUBEncryptionParser.parseDocument(try archive.get(href: "META-INF/encryption.xml").read().get())
        let links = document.entries.filter { $0.kind == .lcp }.map { entry in
            var link = Link(href: Href.fromPath(entry.path))
            link.properties.encryption = entry.encryption
            return link
        }
        return (TransformingFetcher(archive, transformer: LCPDecryptor(client: client, context: context).transformer), links)
    }

    func sha256(_ data: Data) -> String { Digest.sha256(data).hexString }

    @Test func wastelandResourcesDecryptAndInflate() throws {
        let (fetcher, links) = try decrypting(.wasteland)
        defer { fetcher.close() }
        let expected: [String: (Int, String)] = [
            "EPUB/fonts.css": (486, "230dba67ff57bc27f9c87dd9bf9936c85a05cc79073f931e73e98170fdc92033"),
            "EPUB/wasteland-content.xhtml": (49_975, "048a7ccf20666198ca4953f34e46db2a5dc07ce5048137e01ee0b90ae41c376b"),
            "EPUB/wasteland-night.css": (278, "e38b6e163d5909176f71d3e7026c7e365703ffb329e1283605ee9401c7850ad2"),
            "EPUB/wasteland.css": (1024, "d2dece2e199f47ec83e6d9bf8bf9836f78af550b9bf2602f897d1b08d3d04240"),
        ]
        #expect(Set(links.compactMap(\.path)) == Set(expected.keys))
        for link in links {
            let data = try fetcher.get(link).read().get()
            let (size, hash) = try #require(expected[link.path ?? ""])
            #expect(data.count == size, "\(link.href)")
            #expect(sha256(data) == hash, "\(link.href)")
        }
        // Byte-identical to IDPF's original.
        let original = try SampleVector.entry("EPUB/wasteland-content.xhtml", of: Fixtures.sample("epub/idpf-wasteland.epub"))
        let content = try #require(links.first { $0.path == "EPUB/wasteland-content.xhtml" })
        #expect(try fetcher.get(content).read().get() == original)
    }

    @Test func epubLCPChapterDecryptsAndInflatesToItsOriginalLength() throws {
        let (fetcher, links) = try decrypting(.epubLCP)
        defer { fetcher.close() }
        #expect(links.count == 149)
        let chapter = try #require(links.first { $0.path == "OPS/chapter_001.xhtml" })
        #expect(chapter.encryption?.originalLength == 13_877)
        let data = try fetcher.get(chapter).read().get()
        #expect(data.count == 13_877)
        #expect(sha256(data) == "13ae04e21177babedfde721577615a638341f963731ea936bbb8c3862f57cdfc")
        let cover = try fetcher.get(try #require(links.first { $0.path == "OPS/cover.xhtml" })).read().get()
        #expect(cover.count == 372)
        #expect(sha256(cover).hasPrefix("0645418c") && sha256(cover).hasSuffix("0c9d4c"))
        // Listed in encryption.xml but absent from the package: that item alone is missing.
        let missing = try #require(links.first { $0.path == "OPS/chapter_002.xhtml" })
        guard case .failure(.notFound) = fetcher.get(missing).read() else {
            Issue.record("a missing encrypted entry must read as not found")
            return
        }
    }

    @Test func referenceServerResourcesEqualTheSource() throws {
        let (fetcher, links) = try decrypting(.referenceServer)
        defer { fetcher.close() }
        #expect(links.count == 4)
        let source = Fixtures.sample("lcp/readium-lcp-server-book-source.epub")
        for link in links {
            let data = try fetcher.get(link).read().get()
            #expect(data == (try SampleVector.entry(link.path!, of: source)), "\(link.href)")
        }
        let chapter = try fetcher.get(try #require(links.first { $0.path == "OEBPS/chapter1.xhtml" })).read().get()
        #expect(String(decoding: chapter, as: UTF8.self).contains("LCP-SENTINEL-CHAPTER-1-ALPHA"))
    }

    /// The PDF is block-aligned (a full random pad block) and ZIP-deflated (read whole).
    @Test func daisyPDFDecryptsToTheClearPDFAndServesRanges() async throws {
        let lcp = try TestLCP()
        let publication = try await lcp.open(SampleVector.daisy.path, credentials: "test")
        defer { publication.close() }
        #expect(!publication.isRestricted)
        let clear = Fixtures.bytes(Fixtures.sample("lcp/swifttoolkit-daisy.pdf"))
        let resource = publication.get("publication.pdf")
        #expect(try resource.read().get() == clear)
        #expect(try resource.length.get() == 819_856)
        for range: Range<UInt64> in [0..<5, 100..<117, 819_840..<819_856, 819_850..<900_000, 400_000..<465_536] {
            let upper = min(range.upperBound, UInt64(clear.count))
            #expect(try resource.read(range: range).get() == clear.subdata(in: Int(range.lowerBound)..<Int(upper)), "\(range)")
        }
    }

    @Test func openerReadsTheWastelandWithFontsDeobfuscatedAfterDecryption() async throws {
        let lcp = try TestLCP()
        let publication = try await lcp.open(SampleVector.wasteland.path, credentials: "dan")
        defer { publication.close() }
        #expect(!publication.isRestricted)
        #expect(publication.protectionName == "Readium LCP")
        let original = try SampleVector.entry("EPUB/wasteland-content.xhtml", of: Fixtures.sample("epub/idpf-wasteland.epub"))
        #expect(try publication.read("EPUB/wasteland-content.xhtml") == original)
        // Fonts are only obfuscated: deobfuscated, they are OpenType again.
        #expect(try publication.read("EPUB/OldStandard-Regular.obf.otf").prefix(4) == Data("OTTO".utf8))
        // Clear resources pass through untouched.
        #expect(try publication.read("EPUB/wasteland-cover.jpg") == (try SampleVector.entry("EPUB/wasteland-cover.jpg", of: SampleVector.wasteland.path)))
        let license = try #require(publication.lcpLicense)
        #expect(license.certificateTrust == .legacyTestCertificate)
        #expect(license.userName == "Daniel Weck")
        #expect(license.charactersToCopyLeft == 2048)
        #expect(license.pagesToPrintLeft == 100)
    }

    @Test func truncatedEPUBOpensFromItsEntriesAfterTheLicense() async throws {
        let lcp = try TestLCP()
        let license = try await lcp.retrieveLicense(SampleVector.epubLCP.path, credentials: "test").get()
        #expect(license.error == nil)
        #expect(license.license.id == SampleVector.epubLCP.id)
        // The package document is missing: the content documents are the reading order,
        // decrypted and inflated (OriginalLength 13,877).
        let publication = try await lcp.open(SampleVector.epubLCP.path, credentials: "test")
        defer { publication.close() }
        #expect(!publication.isRestricted)
        #expect(publication.readingOrder.map(\.href) == ["OPS/chapter_001.xhtml", "OPS/cover.xhtml"])
        let chapter = try publication.read("OPS/chapter_001.xhtml")
        #expect(chapter.count == 13877)
        #expect(Digest.sha256(chapter).hexString == "13ae04e21177babedfde721577615a638341f963731ea936bbb8c3862f57cdfc")
    }

    @Test func strictTrustRefusesTheLegacySamplesButOpensTheReferenceServerOne() async throws {
        let lcp = try TestLCP(policy: .strict)
        let legacy = try await lcp.open(SampleVector.wasteland.path, credentials: "dan")
        defer { legacy.close() }
        #expect(legacy.isRestricted)
        guard case LCPError.certificateUntrusted? = legacy.protectionError else {
            Issue.record("expected an untrusted certificate, got \(String(describing: legacy.protectionError))")
            return
        }
        let current = try await lcp.open(SampleVector.referenceServer.path, credentials: "correct horse battery staple")
        defer { current.close() }
        #expect(!current.isRestricted)
        #expect(current.lcpLicense?.certificateTrust == .chain)
    }
}
