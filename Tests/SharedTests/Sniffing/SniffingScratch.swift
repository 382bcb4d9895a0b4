import Foundation
import TestSupport

/// Files made on the fly for sniffing tests, in a fresh temporary folder.
struct SniffingScratch {
    let root = Fixtures.temporaryDirectory("sniffing")

    /// Writes `data` at `name` (sub-folders created) and returns the path.
    @discardableResult
    func file(_ name: String, _ data: Data) throws -> String {
        let path = root + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    @discardableResult
    func file(_ name: String, _ text: String) throws -> String {
        try file(name, Data(text.utf8))
    }

    /// A ZIP archive of `entries`, in order.
    func zip(_ name: String, _ entries: [ZipBuilder.Entry]) throws -> String {
        let path = root + "/" + name
        try ZipBuilder.write(entries, to: path)
        return path
    }

    /// A ZIP archive whose entries are all encrypted with traditional PKWARE encryption.
    func encryptedZip(_ name: String, _ entries: [ZipBuilder.Entry], password: String = "secret") throws -> String {
        let staging = Fixtures.temporaryDirectory("zip-staging")
        defer { try? FileManager.default.removeItem(atPath: staging) }
        for entry in entries {
            let path = staging + "/" + entry.name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try entry.data.write(to: URL(fileURLWithPath: path))
        }
        let path = root + "/" + name
        for entry in entries {
            try ZipBuilder.run("/usr/bin/zip", ["-X", "-q", "-P", password, path, entry.name], in: staging)
        }
        return path
    }

    /// A folder holding `entries` (an exploded package).
    func folder(_ name: String, _ entries: [String: String]) throws -> String {
        for (path, text) in entries { try file(name + "/" + path, text) }
        return root + "/" + name
    }
}

/// Small documents shared by the sniffing tests.
enum SniffingSamples {
    static let containerXML = """
        <?xml version="1.0"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <rootfiles><rootfile full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/></rootfiles>
        </container>
        """

    static let opf = "<package xmlns=\"http://www.idpf.org/2007/opf\" version=\"3.0\"/>"

    static func encryptionXML(keyInfo: String, algorithm: String = "http://www.w3.org/2001/04/xmlenc#aes256-cbc") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container"
                    xmlns:enc="http://www.w3.org/2001/04/xmlenc#" xmlns:ds="http://www.w3.org/2000/09/xmldsig#">
          <enc:EncryptedData>
            <enc:EncryptionMethod Algorithm="\(algorithm)"/>
            \(keyInfo)
            <enc:CipherData><enc:CipherReference URI="EPUB/chapter.xhtml"/></enc:CipherData>
          </enc:EncryptedData>
        </encryption>
        """
    }

    static let lcpKeyInfo = """
        <ds:KeyInfo><ds:RetrievalMethod URI="license.lcpl#/encryption/content_key" \
        Type="http://readium.org/2014/01/lcp#EncryptedContentKey"/></ds:KeyInfo>
        """

    static let adeptKeyInfo = """
        <ds:KeyInfo><resource xmlns="http://ns.adobe.com/adept">urn:uuid:00000000-0000-0000-0000-000000000000</resource></ds:KeyInfo>
        """

    /// An EPUB's entries, `mimetype` first and stored, plus `extra`.
    static func epub(_ extra: [ZipBuilder.Entry] = []) -> [ZipBuilder.Entry] {
        [ZipBuilder.Entry("mimetype", "application/epub+zip", compression: .stored),
         ZipBuilder.Entry("META-INF/container.xml", containerXML),
         ZipBuilder.Entry("EPUB/package.opf", opf)] + extra
    }

    static func manifest(readingOrder: String, metadata: String = "\"title\": \"T\"", links: String = "[]") -> String {
        """
        {"@context": "https://readium.org/webpub-manifest/context.jsonld",
         "metadata": {\(metadata)}, "links": \(links), "readingOrder": \(readingOrder)}
        """
    }

    static let pdfReadingOrder = "[{\"href\": \"publication.pdf\", \"type\": \"application/pdf\"}]"
    static let audioReadingOrder = "[{\"href\": \"track1.mp3\", \"type\": \"audio/mpeg\"}, {\"href\": \"track2.m4a\"}]"
    static let htmlReadingOrder = "[{\"href\": \"c1.html\", \"type\": \"text/html\"}]"
    static let imageReadingOrder = "[{\"href\": \"p1.jpg\"}, {\"href\": \"p2.png\", \"type\": \"image/png\"}]"
    static let license = "{\"id\": \"x\", \"issued\": \"2020-01-01T00:00:00Z\", \"provider\": \"p\", \"encryption\": {}}"
}
