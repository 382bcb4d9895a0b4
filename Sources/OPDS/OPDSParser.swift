/// Reads a catalog document: OPDS 1 (Atom) or OPDS 2 (JSON), told apart by its first byte.
public enum OPDSParser {
    /// Catalog documents larger than this are refused rather than parsed.
    public static let maxDocumentSize = 32 * 1024 * 1024

    /// Parses `bytes`, read from `url` (against which its hrefs are resolved).
    public static func parse(_ bytes: [UInt8], url: String) throws(OPDSError) -> OPDSFeed {
        guard bytes.count <= maxDocumentSize else {
            throw .tooLarge(bytes: bytes.count, limit: maxDocumentSize)
        }
        switch firstSignificantByte(bytes) {
        case UInt8(ascii: "{"): return try OPDS2Parser.parse(bytes, url: url)
        case UInt8(ascii: "<"):
            if looksLikeHTML(bytes) { throw .notACatalog("an HTML page, perhaps a network's sign-in page") }
            return try OPDS1Parser.parse(bytes, url: url)
        case nil: throw .notACatalog("the document is empty")
        default: throw .notACatalog("neither XML nor JSON")
        }
    }

    /// A lone publication: an OPDS 2 publication document or an Atom entry (what a borrow link
    /// answers with the loan's acquisition links); nil when the bytes are neither.
    public static func publication(_ bytes: [UInt8], url: String) -> OPDSPublication? {
        guard bytes.count <= maxDocumentSize else { return nil }
        switch firstSignificantByte(bytes) {
        case UInt8(ascii: "{"): return OPDS2Parser.publication(bytes, url: url)
        case UInt8(ascii: "<"): return (try? OPDS1Parser.parse(bytes, url: url))?.publications.first
        default: return nil
        }
    }

    /// An HTML page (a captive portal, an error page) rather than XML: `<!DOCTYPE html` or `<html`
    /// near the start.
    static func looksLikeHTML(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(1024), as: UTF8.self).lowercased()
        return head.contains("<!doctype html") || head.contains("<html")
    }

    private static func firstSignificantByte(_ bytes: [UInt8]) -> UInt8? {
        var index = 0
        // A UTF-8 byte order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        while index < bytes.count {
            let byte = bytes[index]
            if byte != 0x20, byte != 0x0A, byte != 0x0D, byte != 0x09 { return byte }
            index += 1
        }
        return nil
    }
}
