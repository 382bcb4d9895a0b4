import Foundation
import Shared
import Streamer
import Testing
import TestSupport

@Suite struct EPUBEncryptionParserTests {
    static func encryptionXML(of sample: String) throws -> Data {
        let fetcher = try ArchiveFetcher(path: Fixtures.sample(sample))
        defer { fetcher.close() }
        return try fetcher.get(href: EPUBEncryptionParser.path).read().get()
    }

    @Test func lcpWastelandMixesLCPAndObfuscation() throws {
        let document = try EPUBEncryptionParser.parseDocument(Self.encryptionXML(of: "lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.epub"))
        #expect(document.entries.count == 7)
        #expect(document.entries.filter { $0.kind == .lcp }.count == 4)
        #expect(document.entries.filter { $0.kind == .fontObfuscation }.count == 3)
        #expect(document.containsLCP)
        #expect(document.containsDRM)
        #expect(!document.containsAdobeADEPT)
        #expect(document.unknownEntries.isEmpty)

        let encryptions = document.encryptions
        let lcp = try #require(encryptions["EPUB/wasteland-content.xhtml"])
        #expect(lcp == Encryption(algorithm: Encryption.Algorithm.aes256CBC, compression: "deflate", originalLength: 49975,
                                  scheme: "http://readium.org/2014/01/lcp"))
        #expect(encryptions["EPUB/fonts.css"]?.originalLength == 486)
        #expect(encryptions["EPUB/wasteland-night.css"]?.originalLength == 278)
        #expect(encryptions["EPUB/wasteland.css"]?.originalLength == 1024)
        for font in ["EPUB/OldStandard-Bold.obf.otf", "EPUB/OldStandard-Regular.obf.otf", "EPUB/OldStandard-Italic.obf.otf"] {
            #expect(encryptions[font] == Encryption(algorithm: Encryption.Algorithm.idpfFontObfuscation))
        }
    }

    @Test func swiftToolkitDefaultNamespaceFile() throws {
        let data = try Self.encryptionXML(of: "lcp/swifttoolkit-epub-lcp.epub")
        let encryptions = try EPUBEncryptionParser.parse(data)
        #expect(encryptions.count == 149)
        #expect(encryptions.values.allSatisfy { $0.scheme == EPUBEncryptionDocument.lcpScheme })
        #expect(encryptions["OPS/chapter_001.xhtml"]?.compression == "deflate")
        #expect(encryptions["OPS/chapter_001.xhtml"]?.originalLength == 13877)
        // Method 0: stored before encryption, nothing to inflate.
        let image = try #require(encryptions["OPS/images/Moby-Dick_FE_title_page.jpg"])
        #expect(image.compression == nil)
        #expect(image.originalLength == 105155)
    }

    @Test func prefixedDocumentWithCompressionNamespaceOnProperty() throws {
        let xml = """
        <?xml version="1.0"?>
        <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container"
                    xmlns:enc="http://www.w3.org/2001/04/xmlenc#" xmlns:ds="http://www.w3.org/2000/09/xmldsig#">
          <enc:EncryptedData>
            <enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes256-cbc"/>
            <ds:KeyInfo><ds:RetrievalMethod URI="license.lcpl#/encryption/content_key"/></ds:KeyInfo>
            <enc:CipherData><enc:CipherReference URI="OEBPS/content%20001.xhtml"/></enc:CipherData>
            <enc:EncryptionProperties>
              <enc:EncryptionProperty xmlns:comp="http://www.idpf.org/2016/encryption#compression">
                <comp:Compression Method="8" OriginalLength="1234"/>
              </enc:EncryptionProperty>
            </enc:EncryptionProperties>
          </enc:EncryptedData>
          <enc:EncryptedData>
            <enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes256-cbc"/>
            <ds:KeyInfo><ds:RetrievalMethod Type="http://readium.org/2014/01/lcp#EncryptedContentKey"/></ds:KeyInfo>
            <enc:CipherData><enc:CipherReference URI="/OEBPS/./text/../caf%C3%A9.xhtml"/></enc:CipherData>
          </enc:EncryptedData>
          <enc:EncryptedData>
            <enc:EncryptionMethod Algorithm="http://ns.adobe.com/pdf/enc#RC"/>
            <enc:CipherData><enc:CipherReference URI="OEBPS/fonts/a.otf"/></enc:CipherData>
          </enc:EncryptedData>
        </encryption>
        """
        let document = try EPUBEncryptionParser.parseDocument(Data(xml.utf8))
        #expect(document.entries.map(\.path) == ["OEBPS/content 001.xhtml", "OEBPS/café.xhtml", "OEBPS/fonts/a.otf"])
        #expect(document.entries.map(\.kind) == [.lcp, .lcp, .fontObfuscation])
        #expect(document.entries[0].uri == "OEBPS/content%20001.xhtml")
        #expect(document.entries[0].encryption.compression == "deflate")
        #expect(document.entries[0].encryption.originalLength == 1234)
        #expect(document.entries[1].encryption.compression == nil)
    }

    @Test func adobeADEPTAndUnknownAlgorithms() throws {
        let xml = """
        <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#">
            <EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/>
            <KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#">
              <resource xmlns="http://ns.adobe.com/adept">urn:uuid:8f1bd1d6-b0cd-4cf7-8a53-2b8d1e2f9d0d</resource>
            </KeyInfo>
            <CipherData><CipherReference URI="OEBPS/chapter.xhtml"/></CipherData>
          </EncryptedData>
          <EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#">
            <EncryptionMethod Algorithm="http://example.com/secret-sauce"/>
            <CipherData><CipherReference URI="OEBPS/other.xhtml"/></CipherData>
          </EncryptedData>
          <EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#">
            <EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes256-cbc"/>
            <CipherData><CipherReference URI="OEBPS/third.xhtml"/></CipherData>
          </EncryptedData>
        </encryption>
        """
        let document = try EPUBEncryptionParser.parseDocument(Data(xml.utf8))
        #expect(document.entries.map(\.kind) == [.adobeADEPT, .unknown, .unknown])
        #expect(document.containsAdobeADEPT)
        #expect(!document.containsLCP)
        #expect(document.entries[0].encryption.scheme == EPUBEncryptionDocument.adobeADEPTScheme)
        #expect(document.unknownEntries.map(\.path) == ["OEBPS/other.xhtml", "OEBPS/third.xhtml"])
    }

    @Test func elementsOfOtherNamespacesAreNotEncryptionEntries() throws {
        let xml = """
        <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <EncryptedData xmlns="http://example.com/not-xmlenc">
            <EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/>
            <CipherData><CipherReference URI="a.otf"/></CipherData>
          </EncryptedData>
          <EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#">
            <EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes256-cbc"/>
            <KeyInfo xmlns="http://example.com/not-dsig"><RetrievalMethod URI="license.lcpl#/encryption/content_key"/></KeyInfo>
            <CipherData><CipherReference URI="b.xhtml"/></CipherData>
          </EncryptedData>
          <EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#">
            <EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/>
            <CipherData><CipherReference URI="https://example.com/remote.otf"/></CipherData>
          </EncryptedData>
        </encryption>
        """
        let document = try EPUBEncryptionParser.parseDocument(Data(xml.utf8))
        // Only the second is an xmlenc entry; its key info is not the LCP one; the third
        // references something outside the container.
        #expect(document.entries.map(\.path) == ["b.xhtml"])
        #expect(document.entries.map(\.kind) == [.unknown])
    }

    @Test func damagedFilesThrow() {
        #expect(throws: EPUBEncryptionParseError.self) { try EPUBEncryptionParser.parse(Data()) }
        #expect(throws: EPUBEncryptionParseError.self) { try EPUBEncryptionParser.parse(Data("not xml at all".utf8)) }
        let error = try? #require(throws: EPUBEncryptionParseError.self) {
            try EPUBEncryptionParser.parse(Data([0xFF, 0xFE, 0x00]))
        }
        #expect(error?.userMessage.hasPrefix("META-INF/encryption.xml is damaged") == true)
    }

    @Test func entriesForMissingFilesDoNotStopTheBook() throws {
        let encryption = """
        <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#">
            <EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/>
            <CipherData><CipherReference URI="OPS/fonts/absent.otf"/></CipherData>
          </EncryptedData>
          <EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#">
            <EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/>
            <CipherData><CipherReference URI="OPS/c%201.xhtml"/></CipherData>
          </EncryptedData>
        </encryption>
        """
        let opf = EPUBTestSupport.opf(manifest: #"<item id="c1" href="c%201.xhtml" media-type="application/xhtml+xml"/>"#)
        let book = try EPUBTestSupport.parse(opf: opf, entries: [
            .init("META-INF/encryption.xml", encryption), .init("OPS/c 1.xhtml", EPUBTestSupport.xhtml),
        ])
        // Matched on the decoded path, whatever the encoding of either file.
        #expect(book.manifest.readingOrder.first?.properties.encryption?.algorithm == Encryption.Algorithm.idpfFontObfuscation)
    }

    @Test func damagedEncryptionFileIsAWarning() throws {
        let book = try EPUBTestSupport.parse(opf: EPUBTestSupport.opf(), entries: [
            .init("META-INF/encryption.xml", ""), .init("OPS/c1.xhtml", EPUBTestSupport.xhtml),
        ])
        #expect(book.manifest.readingOrder.count == 1)
        #expect(book.warnings.contains { $0.href == "META-INF/encryption.xml" && $0.severity == .major })
    }
}
