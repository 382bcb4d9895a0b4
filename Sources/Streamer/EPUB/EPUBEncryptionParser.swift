import FoundationEssentials
import LibXML
import Shared

/// Parses `META-INF/encryption.xml` (OCF §encryption): the one parser of that file in Lectern,
/// shared by the EPUB parser and the content protections.
///
/// Elements are matched on namespace URI and local name, so prefixed documents (the OCF
/// examples) and documents that redeclare a default namespace on every element (the LCP
/// server's) read the same. Elements without any namespace are accepted too, as some writers
/// forget the declarations; elements in another namespace are not.
public enum EPUBEncryptionParser {
    /// Where the file lives in the container.
    public static let path = "META-INF/encryption.xml"

    /// The encryption of each resource, keyed by package path (percent-decoded, normalised,
    /// from the container root).
    public static func parse(_ data: some Collection<UInt8>) throws(EPUBEncryptionParseError) -> [String: Encryption] {
        try parseDocument(data).encryptions
    }

    /// Every entry of the file with its classification (LCP, Adobe ADEPT, obfuscation, unknown).
    public static func parseDocument(_ data: some Collection<UInt8>) throws(EPUBEncryptionParseError) -> EPUBEncryptionDocument {
        let document: XMLDocument
        do {
            document = try XMLDocument(xml: data)
        } catch {
            throw EPUBEncryptionParseError(reason: "\(error)")
        }
        var entries: [EPUBEncryptionDocument.Entry] = []
        for element in document.root.descendants(named: "EncryptedData")
        where isIn(element, EPUBNamespace.xmlenc) {
            if let entry = entry(from: element) { entries.append(entry) }
        }
        return EPUBEncryptionDocument(entries: entries)
    }

    private static func entry(from element: XMLElement) -> EPUBEncryptionDocument.Entry? {
        guard let reference = child(of: element, "CipherData", EPUBNamespace.xmlenc)
            .flatMap({ child(of: $0, "CipherReference", EPUBNamespace.xmlenc) }),
            let uri = reference.attribute("URI")?.trimmed, !uri.isEmpty,
            // A reference to something outside the container cannot be one of its resources.
            let path = Href.path(of: uri), !path.isEmpty
        else { return nil }

        let algorithm = child(of: element, "EncryptionMethod", EPUBNamespace.xmlenc)?
            .attribute("Algorithm")?.trimmed ?? ""
        var encryption = Encryption(algorithm: algorithm)

        if let compression = element.descendants(named: "Compression").first(where: { isIn($0, EPUBNamespace.compression) }) {
            switch compression.attribute("Method")?.trimmed {
            case "8": encryption.compression = "deflate"
            case "0", nil, "": encryption.compression = nil
            case let other?: encryption.compression = other
            }
            encryption.originalLength = compression.attribute("OriginalLength")
                .flatMap { Int($0.trimmed) }.flatMap { $0 >= 0 ? $0 : nil }
        }

        let kind: EPUBEncryptionDocument.Kind
        let keyInfo = child(of: element, "KeyInfo", EPUBNamespace.xmldsig)
        if let keyInfo, isLCPKey(keyInfo) {
            kind = .lcp
            encryption.scheme = EPUBEncryptionDocument.lcpScheme
        } else if let keyInfo, keyInfo.descendants(named: "resource", namespace: EPUBNamespace.adept).first != nil {
            kind = .adobeADEPT
            encryption.scheme = EPUBEncryptionDocument.adobeADEPTScheme
        } else if encryption.isFontObfuscation {
            kind = .fontObfuscation
        } else {
            kind = .unknown
        }
        return EPUBEncryptionDocument.Entry(path: path, uri: uri, encryption: encryption, kind: kind)
    }

    /// LCP §4.2: the key is retrieved from the license's `encryption/content_key`.
    private static func isLCPKey(_ keyInfo: XMLElement) -> Bool {
        keyInfo.descendants(named: "RetrievalMethod").contains { method in
            guard isIn(method, EPUBNamespace.xmldsig) else { return false }
            let uri = method.attribute("URI")?.trimmed
            let type = method.attribute("Type")?.trimmed
            return uri == "license.lcpl#/encryption/content_key"
                || type == "http://readium.org/2014/01/lcp#EncryptedContentKey"
        }
    }

    private static func isIn(_ element: XMLElement, _ namespace: String) -> Bool {
        let actual = element.namespaceURI
        return actual == nil || actual == namespace
    }

    private static func child(of element: XMLElement, _ name: String, _ namespace: String) -> XMLElement? {
        element.children.first { $0.localName == name && isIn($0, namespace) }
    }
}

/// `META-INF/encryption.xml` could not be read as XML.
public struct EPUBEncryptionParseError: Error, Sendable, CustomStringConvertible, UserMessageConvertible {
    public let reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { userMessage }
    public var userMessage: String { "\(EPUBEncryptionParser.path) is damaged: \(reason)" }
}
