import Foundation
import Shared
@testable import Streamer
import Testing
import TestSupport

@Suite struct EPUBDeobfuscatorTests {
    static let woffFonts = ["EPUB/OldStandard-Bold.obf.woff", "EPUB/OldStandard-Regular.obf.woff", "EPUB/OldStandard-Italic.obf.woff"]

    /// A WOFF file starts with `wOFF` and holds its own total length at offset 8 (big endian),
    /// an independent check that the whole header was restored.
    static func expectValidWOFF(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        let bytes = [UInt8](data)
        #expect(bytes.starts(with: Array("wOFF".utf8)), sourceLocation: sourceLocation)
        guard bytes.count >= 12 else { return }
        let length = bytes[8..<12].reduce(0) { $0 << 8 | Int($1) }
        #expect(length == bytes.count, sourceLocation: sourceLocation)
    }

    @Test(arguments: ["epub/idpf-wasteland-woff-obf.epub", "epub/derived-wasteland-woff-adobe-obf.epub"])
    func woffFontsAreDeobfuscated(sample: String) throws {
        let book = try EPUBTestSupport.parseSample(sample)
        for font in Self.woffFonts {
            let raw = try EPUBTestSupport.rawBytes(sample, font)
            #expect(!raw.starts(with: Array("wOFF".utf8)))
            let data = try book.read(font)
            Self.expectValidWOFF(data)
            #expect(data.count == raw.count)
            // Past the obfuscated head, the bytes are the stored ones.
            #expect(data.suffix(from: data.startIndex + 1040) == raw.suffix(from: raw.startIndex + 1040))
        }
    }

    @Test func trueTypeFontIsDeobfuscated() throws {
        let book = try EPUBTestSupport.parseSample("epub/w3c-ocf-font_obfuscation.epub")
        let data = try book.read("EPUB/fonts/Lobster.ttf")
        #expect(data.prefix(4) == Data([0x00, 0x01, 0x00, 0x00]))
        // numTables is a small count, not obfuscation noise.
        let numTables = Int(data[data.startIndex + 4]) << 8 | Int(data[data.startIndex + 5])
        #expect((1...64).contains(numTables))
    }

    @Test(arguments: [
        ("epub/idpf-wasteland-woff-obf.epub", "EPUB/OldStandard-Bold.obf.woff"),
        ("epub/derived-wasteland-woff-adobe-obf.epub", "EPUB/OldStandard-Italic.obf.woff"),
        ("epub/w3c-ocf-font_obfuscation.epub", "EPUB/fonts/Lobster.ttf"),
    ])
    func rangedReadsMatchTheWholeRead(sample: String, font: String) throws {
        let book = try EPUBTestSupport.parseSample(sample)
        let whole = try book.read(font)
        let ranges: [Range<UInt64>] = [0..<4, 1000..<1100, 1019..<1045, 17..<18, 1039..<1041, 1023..<1025, 5000..<6000,
                                       UInt64(whole.count - 10)..<UInt64(whole.count + 50)]
        for range in ranges {
            let part = try book.read(font, range: range)
            #expect(part == whole.slice(range), "range \(range)")
        }
        #expect(try book.read(font, range: UInt64(whole.count + 10)..<UInt64(whole.count + 20)).isEmpty)
    }

    @Test func keysFollowTheSpecifications() {
        // SHA-1 of the identifier, computed independently (sha1sum).
        #expect(EPUBDeobfuscator.idpfKey("code.google.com.epub-samples.wasteland-woff-obfuscated")
            == Self.hex("646cf2b45ccaf487a36e5911022eaafc59882083"))
        // Only U+0020, U+0009, U+000D and U+000A are removed before hashing.
        #expect(EPUBDeobfuscator.idpfKey(" ocf-font_\tobfuscation\r\n") == Self.hex("b562e83e1606579a9c6c70a75f4a14d2ea36b09e"))
        #expect(EPUBDeobfuscator.idpfKey("ocf-font_obfuscation\u{00A0}") != Self.hex("b562e83e1606579a9c6c70a75f4a14d2ea36b09e"))
        #expect(EPUBDeobfuscator.idpfKey(" \n") == nil)
        #expect(EPUBDeobfuscator.adobeKey("urn:uuid:2b6c8f0e-5a61-4d1e-9c3b-7d0a4e5f6a17") == Self.hex("2b6c8f0e5a614d1e9c3b7d0a4e5f6a17"))
        #expect(EPUBDeobfuscator.adobeKey("2B6C8F0E-5A61-4D1E-9C3B-7D0A4E5F6A17") == Self.hex("2b6c8f0e5a614d1e9c3b7d0a4e5f6a17"))
        #expect(EPUBDeobfuscator.adobeKey("urn:uuid:") == nil)
        #expect(EPUBDeobfuscator.adobeKey("urn:isbn:9780000000000") == nil)
        #expect(EPUBDeobfuscator.adobeKey("urn:uuid:zz6c8f0e-5a61-4d1e-9c3b-7d0a4e5f6a17") == nil)
    }

    @Test func emptyIdentifierLeavesResourcesAsStored() {
        var link = Link(href: "font.otf")
        link.properties.encryption = Encryption(algorithm: Encryption.Algorithm.idpfFontObfuscation)
        let stored = Data((0..<2000).map { UInt8($0 % 251) })
        let resource = BytesResource(link: link, bytes: stored)
        let result = EPUBDeobfuscator(identifier: "").deobfuscate(resource)
        #expect(result === resource)
        #expect((try? result.read().get()) == stored)
    }

    @Test func nonObfuscatedResourcesAreUntouched() {
        var lcp = Link(href: "c.xhtml")
        lcp.properties.encryption = Encryption(algorithm: Encryption.Algorithm.aes256CBC, scheme: EPUBEncryptionDocument.lcpScheme)
        let plain = BytesResource(link: Link(href: "a.css"), bytes: Data("a".utf8))
        let encrypted = BytesResource(link: lcp, bytes: Data("b".utf8))
        let deobfuscator = EPUBDeobfuscator(identifier: "id")
        #expect(deobfuscator.deobfuscate(plain) === plain)
        #expect(deobfuscator.deobfuscate(encrypted) === encrypted)
    }

    @Test func encryptionXMLIsTheFallbackWhenTheLinkHasNoProperties() throws {
        let key = try #require(EPUBDeobfuscator.idpfKey("id"))
        let font = Data("OTTO".utf8 + (0..<1500).map { UInt8($0 % 7) })
        let stored = Data(font.enumerated().map { index, byte in index < 1040 ? byte ^ key[index % key.count] : byte })
        let bare = BytesResource(link: Link(href: "EPUB/f%20a.otf"), bytes: stored)
        let deobfuscator = EPUBDeobfuscator(identifier: "id", encryptions: [
            "EPUB/f a.otf": Encryption(algorithm: Encryption.Algorithm.idpfFontObfuscation),
        ])
        #expect(try deobfuscator.deobfuscate(bare).read().get() == font)
    }

    /// The parser's fetcher deobfuscates what the fetcher it was given returns, so that a
    /// protection's decryption runs first.
    @Test func deobfuscationRunsAfterDecryption() throws {
        let identifier = "urn:uuid:0b6c8f0e-5a61-4d1e-9c3b-7d0a4e5f6a17"
        let key = try #require(EPUBDeobfuscator.idpfKey(identifier))
        let font = Data("wOFF".utf8 + (0..<3000).map { UInt8(($0 * 31) % 256) })
        let obfuscated = Data(font.enumerated().map { index, byte in index < 1040 ? byte ^ key[index % key.count] : byte })
        // A stand-in for a DRM: every byte stored complemented.
        let ciphertext = Data(obfuscated.map { ~$0 })
        let encryption = """
        <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#">
            <EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/>
            <CipherData><CipherReference URI="OPS/font.woff"/></CipherData>
          </EncryptedData>
        </encryption>
        """
        let opf = EPUBTestSupport.opf(
            metadata: "<dc:title>T</dc:title><dc:identifier id=\"id\">\(identifier)</dc:identifier>",
            manifest: #"<item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="f" href="font.woff" media-type="font/woff"/>"#)
        let book = try EPUBTestSupport.parse(opf: opf, entries: [
            .init("META-INF/encryption.xml", encryption), .init("OPS/c1.xhtml", EPUBTestSupport.xhtml),
            .init("OPS/font.woff", ciphertext),
        ], wrap: { archive in
            TransformingFetcher(archive) { resource in
                guard resource.link.path == "OPS/font.woff" else { return resource }
                return TransformingResource(resource) { .success(Data($0.map { ~$0 })) }
            }
        })
        #expect(try book.read("OPS/font.woff") == font)
        #expect(try book.read("OPS/font.woff", range: 1030..<1050) == font.slice(1030..<1050))
    }

    static func hex(_ text: String) -> [UInt8] {
        stride(from: 0, to: text.count, by: 2).map { index in
            let start = text.index(text.startIndex, offsetBy: index)
            return UInt8(text[start..<text.index(start, offsetBy: 2)], radix: 16)!
        }
    }
}

extension EPUBTestSupport {
    /// The bytes of an entry as stored in a sample.
    static func rawBytes(_ sample: String, _ href: String) throws -> Data {
        let fetcher = try ArchiveFetcher(path: Fixtures.sample(sample))
        defer { fetcher.close() }
        return try fetcher.get(href: href).read().get()
    }
}
