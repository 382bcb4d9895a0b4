import FoundationEssentials

/// Tidies the HTML of an old Mobipocket book for an HTML parser: Mobipocket's own elements
/// (`<mbp:pagebreak/>`, `<mbp:nu>`…) go, a page break becoming an empty block that starts a
/// new page. The rest (unclosed tags, `<font>`) is left to libxml2's tolerant HTML parser.
enum MobiHTMLCleaner {
    static func clean(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        let open = Array("<mbp:".utf8), close = Array("</mbp:".utf8), pagebreak = Array("<mbp:pagebreak".utf8)
        let replacement = Array("<div style=\"page-break-before: always\"></div>".utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "<"),
               matches(bytes, at: index, open) || matches(bytes, at: index, close),
               let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) {
                if matches(bytes, at: index, pagebreak) { out += replacement }
                index = end + 1
                continue
            }
            out.append(bytes[index])
            index += 1
        }
        return Data(out)
    }

    private static func matches(_ bytes: [UInt8], at index: Int, _ prefix: [UInt8]) -> Bool {
        guard index + prefix.count <= bytes.count else { return false }
        for offset in prefix.indices where lower(bytes[index + offset]) != prefix[offset] { return false }
        return true
    }

    private static func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
}
