/// Content after a document's `</html>`.
///
/// libxml2's whole-document HTML parser keeps it (in a second `<html>` inside the first), its
/// push parser drops it: a document with any gets the whole-document parse, so that no text is
/// lost. Only the tail is scanned.
enum TrailingContent {
    /// Whether anything but whitespace and comments follows the last `</html>` of `bytes`.
    static func existsAfterDocumentEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let end = lastEndTag(in: bytes) else { return false }
        var index = end
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x0C {
                index += 1
            } else if matches("<!--", bytes, at: index) {
                guard let close = find("-->", in: bytes, from: index + 4) else { return false }
                index = close + 3
            } else {
                return true
            }
        }
        return false
    }

    /// The position after the `>` of the last `</html` (any case), or nil.
    private static func lastEndTag(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = bytes.count - 6
        while index >= 0 {
            if bytes[index] == UInt8(ascii: "<"), matches("</html", bytes, at: index, ignoringCase: true) {
                var close = index + 6
                while close < bytes.count, bytes[close] != UInt8(ascii: ">") { close += 1 }
                return min(close + 1, bytes.count)
            }
            index -= 1
        }
        return nil
    }

    private static func matches(_ text: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, at index: Int,
                                ignoringCase: Bool = false) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return text.withUTF8Buffer { pattern in
            (0..<count).allSatisfy { ignoringCase ? bytes[index + $0] | 0x20 == pattern[$0] | 0x20 : bytes[index + $0] == pattern[$0] }
        }
    }

    private static func find(_ text: StaticString, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if matches(text, bytes, at: index) { return index }
            index += 1
        }
        return nil
    }
}
