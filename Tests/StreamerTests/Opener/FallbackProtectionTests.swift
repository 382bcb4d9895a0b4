import Foundation
import Shared
import Streamer
import Testing
import TestSupport

/// Publications protected by something Lectern cannot unlock open restricted, with an error
/// naming the technology; font obfuscation is not a protection.
@Suite struct FallbackProtectionTests {
    static let container = """
        <?xml version="1.0"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <rootfiles><rootfile full-path="OPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles>
        </container>
        """
    static let opf = """
        <?xml version="1.0"?>
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:title>Locked Book</dc:title><dc:identifier id="id">urn:uuid:1</dc:identifier><dc:language>en</dc:language>
          </metadata>
          <manifest>
            <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
            <item id="font" href="font.otf" media-type="font/otf"/>
          </manifest>
          <spine><itemref idref="c1"/></spine>
        </package>
        """

    static func encryption(_ algorithm: String, target: String = "OPS/c1.xhtml", keyInfo: String = "") -> String {
        """
        <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#" xmlns:ds="http://www.w3.org/2000/09/xmldsig#">
          <enc:EncryptedData>
            <enc:EncryptionMethod Algorithm="\(algorithm)"/>
            \(keyInfo)
            <enc:CipherData><enc:CipherReference URI="\(target)"/></enc:CipherData>
          </enc:EncryptedData>
        </encryption>
        """
    }

    func open(_ extra: [ZipBuilder.Entry]) async throws -> Publication {
        let path = Fixtures.temporaryDirectory("fallback") + "/book.epub"
        try ZipBuilder.write([
            .init("mimetype", "application/epub+zip", compression: .stored),
            .init("META-INF/container.xml", Self.container),
            .init("OPS/package.opf", Self.opf),
            .init("OPS/c1.xhtml", Data((0..<64).map { _ in UInt8.random(in: 0...255) })),
            .init("OPS/font.otf", Data(repeating: 7, count: 64)),
        ] + extra, to: path)
        let asset = try AssetRetriever().retrieve(path: path)
        return try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
    }

    @Test func unknownEncryptionAlgorithmIsRestricted() async throws {
        let publication = try await open([.init("META-INF/encryption.xml", Self.encryption("http://example.com/secret-cipher"))])
        #expect(publication.isRestricted)
        #expect(publication.metadata.title == "Locked Book")
        #expect(publication.protectionError.map(userMessage(of:))?.contains("method Lectern does not know") == true)
        let chapter = try #require(publication.readingOrder.first)
        guard case .failure(.forbidden) = publication.get(chapter).read() else {
            Issue.record("ciphertext must not be served as content")
            return
        }
    }

    @Test func adobeADEPTIsRestrictedAndNamed() async throws {
        let keyInfo = """
            <ds:KeyInfo><resource xmlns="http://ns.adobe.com/adept">urn:uuid:abc</resource></ds:KeyInfo>
            """
        let publication = try await open([
            .init("META-INF/rights.xml", "<rights xmlns=\"http://ns.adobe.com/adept\"/>"),
            .init("META-INF/encryption.xml", Self.encryption("http://www.w3.org/2001/04/xmlenc#aes128-cbc", keyInfo: keyInfo)),
        ])
        #expect(publication.isRestricted)
        #expect(publication.protectionName == "Adobe ADEPT")
        #expect(publication.protectionError.map(userMessage(of:))?.contains("Adobe ADEPT") == true)
        #expect(await !publication.rights.canCopy)
    }

    @Test func fontObfuscationAloneIsNotAProtection() async throws {
        let publication = try await open([
            .init("META-INF/encryption.xml", Self.encryption("http://www.idpf.org/2008/embedding", target: "OPS/font.otf")),
        ])
        #expect(!publication.isProtected)
        #expect(!publication.isRestricted)
    }

    @Test func damagedEncryptionDocumentDoesNotMakeAPlainBookProtected() async throws {
        let publication = try await open([.init("META-INF/encryption.xml", "<encryption><<<")])
        #expect(!publication.isProtected)
    }
}
