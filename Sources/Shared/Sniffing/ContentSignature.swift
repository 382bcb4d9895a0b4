/// What the first bytes of a file say about it, before any parsing.
enum ContentSignature: Equatable {
    /// `PK\x03\x04` (local file header), `PK\x05\x06` (empty archive) or `PK\x07\x08`
    /// (spanned archive marker).
    case zip
    /// `%PDF-`.
    case pdf
    /// Starts, after a byte-order mark and whitespace, with `{` or `[`.
    case json
    /// Starts, after a byte-order mark and whitespace, with `<`.
    case markup
    /// Anything else, including an empty file.
    case unknown

    init(head: some Collection<UInt8>) {
        let bytes = Array(head.prefix(8))
        if bytes.count >= 4, bytes[0] == 0x50, bytes[1] == 0x4B,
           (bytes[2], bytes[3]) == (0x03, 0x04) || (bytes[2], bytes[3]) == (0x05, 0x06) || (bytes[2], bytes[3]) == (0x07, 0x08) {
            self = .zip
        } else if bytes.starts(with: Array("%PDF-".utf8)) {
            self = .pdf
        } else {
            switch ContentSignature.firstSignificantByte(of: head) {
            case UInt8(ascii: "{"), UInt8(ascii: "["): self = .json
            case UInt8(ascii: "<"): self = .markup
            default: self = .unknown
            }
        }
    }

    /// The first byte after a UTF-8 byte-order mark and ASCII whitespace.
    static func firstSignificantByte(of bytes: some Collection<UInt8>) -> UInt8? {
        significantBytes(of: bytes).first
    }

    /// The bytes after a UTF-8 byte-order mark and leading ASCII whitespace.
    static func significantBytes<C: Collection<UInt8>>(of bytes: C) -> C.SubSequence {
        var slice = bytes[...]
        if slice.starts(with: [0xEF, 0xBB, 0xBF]) { slice = slice.dropFirst(3) }
        return slice.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x0C }
    }

    /// Whether the document opens with the HTML5 doctype `<!doctype html>`, in any case,
    /// after whitespace.
    static func hasHTML5Doctype(_ bytes: some Collection<UInt8>) -> Bool {
        let rest = Array(significantBytes(of: bytes).prefix(64))
        let keyword = Array("<!doctype".utf8)
        guard rest.count > keyword.count, Swift.zip(rest, keyword).allSatisfy({ lowered($0) == $1 }) else { return false }
        var index = keyword.count
        guard isSpace(rest[index]) else { return false }
        while index < rest.count, isSpace(rest[index]) { index += 1 }
        let html = Array("html".utf8)
        guard index + html.count <= rest.count,
              Swift.zip(rest[index...], html).allSatisfy({ lowered($0) == $1 }) else { return false }
        index += html.count
        while index < rest.count, isSpace(rest[index]) { index += 1 }
        return index < rest.count && rest[index] == UInt8(ascii: ">")
    }

    /// Whether the document opens with any HTML doctype (`<!DOCTYPE html PUBLIC …`) or an
    /// `<html` tag: tag soup that an XML parser may refuse.
    static func looksLikeHTML(_ bytes: some Collection<UInt8>) -> Bool {
        let rest = Array(significantBytes(of: bytes).prefix(32)).map(lowered)
        return rest.starts(with: Array("<!doctype html".utf8)) || rest.starts(with: Array("<html".utf8))
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }
}
