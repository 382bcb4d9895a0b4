import Foundation
import LCP
import Shared
import TestSupport

/// One resource of a forged protected package.
struct ForgedResource {
    var path: String
    var plaintext: Data
    var mediaType: String
    /// Deflated before encryption (`Compression Method="8"`, `compression: deflate`).
    var deflate = false
    /// How the (encrypted) bytes are stored in the ZIP.
    var zip: ZipBuilder.Compression = .stored
    /// Left in clear although declared encrypted.
    var storedInClear = false
    /// `OriginalLength` to declare instead of the true one.
    var declaredLength: Int?
    /// Changes the encrypted bytes (truncation, corruption).
    var damage: ((inout [UInt8]) -> Void)?

    init(_ path: String, _ plaintext: Data, mediaType: String, deflate: Bool = false, zip: ZipBuilder.Compression = .stored) {
        self.path = path
        self.plaintext = plaintext
        self.mediaType = mediaType
        self.deflate = deflate
        self.zip = zip
    }

    /// The bytes written in the package.
    func stored(with key: [UInt8]) throws -> Data {
        if storedInClear { return plaintext }
        let compressed = deflate ? try Shell.rawDeflate(plaintext) : plaintext
        var bytes = try LicenseForge.encrypt([UInt8](compressed), key: key)
        damage?(&bytes)
        return Data(bytes)
    }

    var originalLength: Int { declaredLength ?? plaintext.count }
}

/// Writes LCP-protected EPUB, LCPDF and LCPA packages around a forged license.
enum PackageForge {
    static func text(_ size: Int, seed: String = "chapter") -> Data {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>\(seed)</title></head><body>\n"
        var line = 0
        while text.utf8.count < size - 20 {
            text += "<p>\(seed) line \(line): the quick brown fox jumps over the lazy dog.</p>\n"
            line += 1
        }
        text += "</body></html>\n"
        return Data(text.utf8)
    }

    /// A typical set: a deflated chapter (CBC whole), a stored chapter (CBC ranges), a
    /// deflated style sheet and a stored image.
    static func defaultResources() -> [ForgedResource] {
        [
            ForgedResource("OEBPS/chapter1.xhtml", text(20_000, seed: "one"), mediaType: "application/xhtml+xml", deflate: true),
            ForgedResource("OEBPS/chapter2.xhtml", text(70_001, seed: "two"), mediaType: "application/xhtml+xml"),
            ForgedResource("OEBPS/style.css", Data("body { margin: 1em; }\np { text-indent: 1em; }\n".utf8), mediaType: "text/css", deflate: true),
            ForgedResource("OEBPS/images/pic.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + LicenseForge.randomBytes(4096)),
                           mediaType: "image/png"),
        ]
    }

    static let nav = """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head>
        <body><nav epub:type="toc"><ol><li><a href="chapter1.xhtml">One</a></li><li><a href="chapter2.xhtml">Two</a></li></ol></nav></body></html>
        """

    /// An EPUB with `resources` encrypted with the license's content key (nil license: the
    /// package has an LCP encryption.xml but no license).
    static func epub(at path: String, license: ForgedLicense?, contentKey: [UInt8]? = nil,
                     resources: [ForgedResource] = defaultResources(), title: String = "Forged LCP Book",
                     itemAttributes: [String: String] = [:]) throws {
        let key = contentKey ?? license?.contentKey ?? LicenseForge.randomBytes(32)
        var items = "<item id=\"nav\" href=\"nav.xhtml\" media-type=\"application/xhtml+xml\" properties=\"nav\"/>\n"
        var spine = ""
        var encryption = ""
        for (index, resource) in resources.enumerated() {
            let href = String(resource.path.dropFirst("OEBPS/".count))
            items += "<item id=\"r\(index)\" href=\"\(href)\" media-type=\"\(resource.mediaType)\" \(itemAttributes[resource.path] ?? "")/>\n"
            if resource.mediaType == "application/xhtml+xml" { spine += "<itemref idref=\"r\(index)\"/>\n" }
            encryption += """
                <enc:EncryptedData>
                  <enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes256-cbc"/>
                  <ds:KeyInfo><ds:RetrievalMethod URI="license.lcpl#/encryption/content_key" Type="http://readium.org/2014/01/lcp#EncryptedContentKey"/></ds:KeyInfo>
                  <enc:CipherData><enc:CipherReference URI="\(resource.path)"/></enc:CipherData>
                  \(resource.deflate || resource.declaredLength != nil ? """
                  <enc:EncryptionProperties><enc:EncryptionProperty xmlns:comp="http://www.idpf.org/2016/encryption#compression">
                    <comp:Compression Method="\(resource.deflate ? 8 : 0)" OriginalLength="\(resource.originalLength)"/>
                  </enc:EncryptionProperty></enc:EncryptionProperties>
                  """ : "")
                </enc:EncryptedData>

                """
        }
        let opf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:title>\(title)</dc:title><dc:identifier id="uid">urn:uuid:\(UUID().uuidString)</dc:identifier><dc:language>en</dc:language>
                <meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>
              </metadata>
              <manifest>\(items)</manifest>
              <spine>\(spine)</spine>
            </package>
            """
        var entries: [ZipBuilder.Entry] = [
            .init("mimetype", "application/epub+zip", compression: .stored),
            .init("META-INF/container.xml", """
                <?xml version="1.0"?>
                <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
                  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
                </container>
                """),
            .init("META-INF/encryption.xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#" xmlns:ds="http://www.w3.org/2000/09/xmldsig#">
                \(encryption)</encryption>
                """),
            .init("OEBPS/content.opf", opf),
            .init("OEBPS/nav.xhtml", nav),
        ]
        if let license { entries.append(.init("META-INF/license.lcpl", license.data)) }
        for resource in resources {
            entries.append(.init(resource.path, try resource.stored(with: key), compression: resource.zip))
        }
        try ZipBuilder.write(entries, to: path)
    }

    /// A Readium package (`.lcpdf`, `.lcpa`) with `manifest.json` and `license.lcpl` at the root.
    static func readiumPackage(at path: String, license: ForgedLicense?, contentKey: [UInt8]? = nil, conformsTo: String,
                               readingOrder: [ForgedResource], resources: [ForgedResource] = []) throws {
        let key = contentKey ?? license?.contentKey ?? LicenseForge.randomBytes(32)
        func link(_ resource: ForgedResource) -> JSONValue {
            var encrypted = JSONObject([
                "scheme": .string(LCPDecryptor.scheme), "profile": .string(LCPProfile.basic),
                "algorithm": .string(LCPAlgorithm.aes256CBC),
            ])
            if resource.deflate { encrypted["compression"] = .string("deflate") }
            if resource.deflate || resource.declaredLength != nil { encrypted["originalLength"] = .int(resource.originalLength) }
            return .object(JSONObject([
                "href": .string(resource.path), "type": .string(resource.mediaType),
                "properties": .object(JSONObject(["encrypted": .object(encrypted)])),
            ]))
        }
        let manifest = JSONValue.object(JSONObject([
            "@context": .string("https://readium.org/webpub-manifest/context.jsonld"),
            "metadata": .object(JSONObject(["title": .string("Forged Package"), "conformsTo": .string(conformsTo),
                                            "numberOfPages": .int(3)])),
            "readingOrder": .array(readingOrder.map(link)),
            "resources": .array(resources.map(link)),
        ]))
        var entries: [ZipBuilder.Entry] = [.init("manifest.json", Data(JSONWriter().bytes(manifest)))]
        if let license { entries.append(.init("license.lcpl", license.data)) }
        for resource in readingOrder + resources {
            entries.append(.init(resource.path, try resource.stored(with: key), compression: resource.zip))
        }
        try ZipBuilder.write(entries, to: path)
    }
}
