import FoundationEssentials
import Shared

/// A link of a License or License Status Document (LCP §3.5, LSD §2.4).
///
/// Parsed tolerantly: `rel` may be a string or an array, `length` an integer or a string
/// holding one, and `hash` hexadecimal (what servers write) or base64 (what the spec's table
/// says).
public struct LicenseLink: Sendable, Hashable {
    public var href: String
    /// Relations, e.g. `publication`, `hint`, `status`, `register`.
    public var rels: [String]
    public var title: String?
    /// The media type, as written.
    public var type: String?
    /// Whether `href` is an RFC 6570 URI template.
    public var templated: Bool
    public var profile: String?
    /// Size of the linked resource in bytes.
    public var length: Int?
    /// SHA-256 of the linked resource, as written (hex or base64; see ``hashBytes``).
    public var hash: String?

    public init(href: String, rels: [String], title: String? = nil, type: String? = nil, templated: Bool = false,
                profile: String? = nil, length: Int? = nil, hash: String? = nil) {
        self.href = href
        self.rels = rels
        self.title = title
        self.type = type
        self.templated = templated
        self.profile = profile
        self.length = length
        self.hash = hash
    }

    /// Parses a link object; `what` names the document for the error message.
    init(json: JSONValue, in what: String) throws(LCPError) {
        guard let object = json.object else { throw .invalidLicense("\(what): a link is not an object") }
        guard let href = object["href"]?.string, !href.isEmpty else { throw .invalidLicense("\(what): a link has no href") }
        let rels = object["rel"]?.strings ?? []
        guard !rels.isEmpty else { throw .invalidLicense("\(what): the link \(href) has no rel") }
        self.href = href
        self.rels = rels
        title = object["title"]?.string
        type = object["type"]?.string
        templated = object["templated"]?.bool ?? false
        profile = object["profile"]?.string
        length = object["length"]?.int
        hash = object["hash"]?.string
    }

    /// Parses an array of links; a license whose `links` is an object keyed by relation
    /// (pre-1.0 drafts) is not an LCP 1.0 license.
    static func array(_ json: JSONValue?, in what: String) throws(LCPError) -> [LicenseLink] {
        guard let json else { return [] }
        guard let array = json.array else { throw .invalidLicense("\(what): `links` is not an array") }
        var links: [LicenseLink] = []
        for element in array { links.append(try LicenseLink(json: element, in: what)) }
        return links
    }

    public func hasRel(_ rel: String) -> Bool { rels.contains(rel) }

    /// The media type, parsed.
    public var mediaType: MediaType? { type.flatMap(MediaType.init) }

    /// The 32 bytes of ``hash``, from 64 hexadecimal digits or base64; nil when absent or
    /// neither.
    public var hashBytes: [UInt8]? {
        guard let hash = hash?.trimmed else { return nil }
        if let bytes = Hex.decode(hash), bytes.count == 32 { return bytes }
        if let data = Data(base64Encoded: hash), data.count == 32 { return Array(data) }
        return nil
    }

    /// The URL, with a template expanded with `parameters` (undefined variables omitted).
    public func url(_ parameters: [String: String] = [:]) -> String {
        templated ? URITemplate(href).expand(parameters) : href
    }
}

extension Array where Element == LicenseLink {
    /// The first link with this relation.
    public func first(withRel rel: String) -> LicenseLink? { first { $0.hasRel(rel) } }
    /// Every link with this relation.
    public func filter(byRel rel: String) -> [LicenseLink] { filter { $0.hasRel(rel) } }
}

/// Hexadecimal decoding.
enum Hex {
    /// The bytes of an even number of hexadecimal digits (either case); nil otherwise.
    static func decode(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// Decodes exactly 64 hexadecimal digits (a user key) into `bytes` (32 bytes), without
    /// allocating; false when `text` is anything else.
    static func decodeSHA256(_ text: String, into bytes: inout [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { digits in
            guard digits.count == 64, bytes.count == 32 else { return false }
            for index in 0..<32 {
                guard let high = value(digits[2 * index]), let low = value(digits[2 * index + 1]) else { return false }
                bytes[index] = high << 4 | low
            }
            return true
        }
    }

    /// Whether `text` is exactly 64 hexadecimal digits, the form of a hashed passphrase.
    static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { value($0) != nil }
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 0x30...0x39: digit - 0x30
        case 0x41...0x46: digit - 0x41 + 10
        case 0x61...0x66: digit - 0x61 + 10
        default: nil
        }
    }
}

extension Data {
    /// Base64, tolerating line breaks and spaces (some servers wrap long values) but nothing
    /// else.
    init?(lenientBase64 text: String) {
        let compact = String(String.UnicodeScalarView(text.unicodeScalars.filter { !" \t\r\n".unicodeScalars.contains($0) }))
        self.init(base64Encoded: compact)
    }
}
