/// Removes the internal subset of a content document's `<!DOCTYPE … [ … ]>`.
///
/// Content documents go through libxml2's HTML parser, which knows no internal subset and
/// would show its declarations (`<!ENTITY …>`, `<!ATTLIST …>`, the closing `]>`) as text at the
/// top of the chapter. The subset declares nothing Lectern uses — its entities are never
/// substituted, so that no entity expansion can blow up — and is dropped.
enum DoctypeSubsetRemover {
    /// How far into the document the DOCTYPE is looked for (after the XML declaration and
    /// comments).
    static let searchLimit = 4096

    /// `bytes` without the internal subset, or nil when there is none.
    static func removed(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let doctype = find("<!DOCTYPE", in: bytes, before: min(bytes.count, searchLimit)) else { return nil }
        var index = doctype + 9
        var quote: UInt8?
        // The name and external identifier, up to `[` (a subset) or `>` (none).
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return nil
            } else if byte == UInt8(ascii: "[") {
                break
            }
            index += 1
        }
        guard index < bytes.count else { return nil }
        let subsetStart = index
        // The subset ends at the first `]` outside quoted literals and comments.
        index += 1
        quote = nil
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "<"), index + 3 < bytes.count, bytes[index + 1] == UInt8(ascii: "!"),
                      bytes[index + 2] == UInt8(ascii: "-"), bytes[index + 3] == UInt8(ascii: "-") {
                index += 4
                while index + 2 < bytes.count,
                      !(bytes[index] == UInt8(ascii: "-") && bytes[index + 1] == UInt8(ascii: "-") && bytes[index + 2] == UInt8(ascii: ">")) {
                    index += 1
                }
                index += 2
            } else if byte == UInt8(ascii: "]") {
                return Array(bytes[..<subsetStart]) + Array(bytes[(index + 1)...])
            }
            index += 1
        }
        return nil
    }

    /// The offset of `text` (ASCII, matched case-insensitively) before `limit`.
    private static func find(_ text: StaticString, in bytes: UnsafeBufferPointer<UInt8>, before limit: Int) -> Int? {
        let count = text.utf8CodeUnitCount
        guard limit >= count else { return nil }
        return text.withUTF8Buffer { pattern in
            (0...(limit - count)).first { start in
                (0..<count).allSatisfy { bytes[start + $0] | 0x20 == pattern[$0] | 0x20 }
            }
        }
    }
}
