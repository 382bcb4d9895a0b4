
/// Parses JSON for sniffing, forgiving the one slip real documents make: a trailing comma
/// before `]` or `}` (the OPDS authentication example of the Readium fixtures has one). The
/// strict ``JSONParser`` decides everything else, including its depth limit and UTF-8 checks.
enum LenientJSON {
    static func parse(_ bytes: some Collection<UInt8>) -> JSONValue? {
        let bytes = Array(bytes)
        if let value = try? JSONParser.parse(bytes) { return value }
        guard let repaired = removingTrailingCommas(bytes) else { return nil }
        return try? JSONParser.parse(repaired)
    }

    /// The bytes without the commas that are followed, after whitespace, by `]` or `}`
    /// outside strings; nil when there are none.
    static func removingTrailingCommas(_ bytes: [UInt8]) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var inString = false
        var escaped = false
        var removed = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            defer { index += 1 }
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                output.append(byte)
                continue
            }
            if byte == UInt8(ascii: "\"") { inString = true }
            if byte == UInt8(ascii: ",") {
                var next = index + 1
                while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
                if next < bytes.count, bytes[next] == UInt8(ascii: "]") || bytes[next] == UInt8(ascii: "}") {
                    removed = true
                    continue
                }
            }
            output.append(byte)
        }
        return removed ? output : nil
    }
}
