import FoundationEssentials
import LibXML
import Shared

/// Bounds on what the parser accepts, so that a hostile package cannot make it hold or walk
/// arbitrarily large documents.
enum EPUBLimits {
    /// Largest XML document (container, package, navigation, encryption) read into memory.
    /// Real package documents are a few hundred kilobytes; the biggest navigation documents a
    /// few megabytes.
    static let maxXMLDocumentSize: UInt64 = 32 << 20
    /// Deepest nesting of table of contents entries kept.
    static let maxNavigationDepth = 64
    /// Longest manifest fallback chain followed.
    static let maxFallbackChain = 16
}

extension Fetcher {
    /// Reads a whole XML document of the package through this fetcher (so through any
    /// decryption a protection installed), refusing documents larger than
    /// ``EPUBLimits/maxXMLDocumentSize``.
    func readXMLDocumentData(_ link: Link) -> ResourceResult<Data> {
        let resource = get(link)
        defer { resource.close() }
        if case .success(let length) = resource.length, length > EPUBLimits.maxXMLDocumentSize {
            return .failure(.other(ResourceFailure(
                "\(link.href) is \(length) bytes long, more than the \(EPUBLimits.maxXMLDocumentSize) accepted")))
        }
        return resource.read().flatMap { data in
            guard UInt64(data.count) <= EPUBLimits.maxXMLDocumentSize else {
                return .failure(.other(ResourceFailure("\(link.href) is larger than the \(EPUBLimits.maxXMLDocumentSize) bytes accepted")))
            }
            return .success(data)
        }
    }
}

/// Parses XML read from the package, with the error a parser reports for it.
func parseEPUBXML(_ data: Data, href: String) throws(PublicationParseError) -> XMLDocument {
    do {
        return try XMLDocument(xml: data)
    } catch {
        throw .invalid(href: href, reason: "not a readable XML document: \(error)")
    }
}

extension XMLElement {
    /// The `xml:lang` of this element, if it declares one.
    var xmlLanguage: String? {
        attribute("lang", namespace: EPUBNamespace.xml)?.trimmed.nilIfEmpty
    }

    /// The text content, whitespace collapsed, or nil when empty.
    var normalizedTextOrNil: String? {
        normalizedText.nilIfEmpty
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }

    /// The whitespace-separated tokens of an attribute such as `properties` or `epub:type`.
    var tokens: [String] {
        split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init)
    }
}
