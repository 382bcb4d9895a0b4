import LibXML
import Shared

/// An OpenSearch 1.1 description document: where an OPDS 1 catalog's `rel="search"` link leads.
public struct OpenSearchDescription: Sendable, Hashable {
    public var shortName: String?
    /// The URL templates, each with the media type of what it returns.
    public var templates: [(type: String?, template: String)] { urls.map { ($0.type, $0.template) } }

    struct URLTemplate: Sendable, Hashable {
        var type: String?
        var template: String
    }

    var urls: [URLTemplate]

    /// Parses a description document read from `url`.
    public static func parse(_ bytes: [UInt8], url: String) throws(OPDSError) -> OpenSearchDescription {
        guard bytes.count <= OPDSParser.maxDocumentSize else {
            throw .tooLarge(bytes: bytes.count, limit: OPDSParser.maxDocumentSize)
        }
        let document: XMLDocument
        do { document = try XMLDocument(xml: bytes, recover: false) } catch { throw .malformed(error.description) }
        let root = document.root
        guard root.isNamed("OpenSearchDescription", namespace: AtomNamespace.openSearch) else {
            throw .notACatalog("not an OpenSearch description document")
        }
        let resolver = CatalogURL(base: url)
        let urls = root.children(named: "Url", namespace: AtomNamespace.openSearch).compactMap { element in
            resolver.resolve(element.attribute("template")).map {
                URLTemplate(type: CatalogText.clean(element.attribute("type")), template: $0)
            }
        }
        return OpenSearchDescription(
            shortName: CatalogText.clean(root.firstChild(named: "ShortName", namespace: AtomNamespace.openSearch)?
                .textContent),
            urls: urls)
    }

    /// The template that returns a catalog feed (OPDS, then any Atom), else the first one.
    public var catalogTemplate: String? {
        (urls.first { ($0.type ?? "").contains("opds-catalog") }
            ?? urls.first { ($0.type ?? "").contains("atom+xml") }
            ?? urls.first)?.template
    }

    public static func == (a: Self, b: Self) -> Bool { a.shortName == b.shortName && a.urls == b.urls }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(shortName)
        hasher.combine(urls)
    }
}

/// Builds the URL of a search from a template and the words searched for.
public enum CatalogSearch {
    /// Fills an OpenSearch template (`{searchTerms}`, optional parameters `{name?}` left empty) or
    /// an RFC 6570 template of an OPDS 2 link (variable `query`, or the template's first variable).
    public static func url(template: String, terms: String) -> String {
        if template.contains("{searchTerms") {
            var output = ""
            var rest = Substring(template)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                output += rest[..<open]
                let name = rest[rest.index(after: open)..<close]
                if name == "searchTerms" || name == "searchTerms?" { output += percentEncoded(terms) }
                rest = rest[rest.index(after: close)...]
            }
            return output + rest
        }
        let uriTemplate = URITemplate(template)
        let variable = uriTemplate.variables.contains("query") ? "query" : (uriTemplate.variables.first ?? "query")
        return uriTemplate.expand([variable: terms])
    }

    /// RFC 3986 unreserved characters kept, everything else percent-encoded (UTF-8).
    static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return result
    }
}
