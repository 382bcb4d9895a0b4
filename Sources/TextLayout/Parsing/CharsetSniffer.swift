/// The character encoding of a content document, found the way browsers do before parsing:
/// a byte-order mark, else the XML declaration, else a `<meta charset>` near the start,
/// else UTF-8 (the default of XHTML and EPUB).
enum CharsetSniffer {
    static func encoding(of bytes: some Collection<UInt8>) -> String {
        let head = Array(bytes.prefix(1024))
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { return "UTF-8" }
        if head.starts(with: [0xFF, 0xFE]) { return "UTF-16LE" }
        if head.starts(with: [0xFE, 0xFF]) { return "UTF-16BE" }
        // ASCII-compatible from here: look for a declared name.
        let text = String(decoding: head.map { $0 < 0x80 ? $0 : 0x20 }, as: UTF8.self).lowercased()
        if text.hasPrefix("<?xml"), let end = text.firstIndex(of: ">"),
           let name = declaredName(in: String(text[..<end]), after: "encoding") {
            return name
        }
        if let name = declaredName(in: text, after: "charset") { return name }
        return "UTF-8"
    }

    /// The value after `key=` (quoted or not), when it looks like an encoding name.
    private static func declaredName(in text: String, after key: String) -> String? {
        guard let range = text.firstRange(of: key) else { return nil }
        var rest = text[range.upperBound...].drop { $0 == " " }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\"" || $0 == "'" }
        let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ":" || $0 == "." }
        guard !name.isEmpty, name.count < 40 else { return nil }
        // UTF-16 declared in an ASCII-readable file is a lie (the file would not be readable).
        if name.hasPrefix("utf-16") || name.hasPrefix("utf-32") { return "UTF-8" }
        return String(name).uppercased()
    }
}
