import FoundationEssentials

/// Decodes the bytes of a plain-text file whose encoding nobody declared: a byte-order mark
/// decides (UTF-8, UTF-16 LE/BE); else valid UTF-8 is UTF-8; else a file whose every other byte
/// is zero is UTF-16 without a mark; else it is Windows-1252 (Latin-1 with the typographic
/// quotes and dashes at 0x80–0x9F), which reads any byte.
enum TextDecoding {
    /// The encoding found.
    enum Encoding: String, Sendable {
        case utf8 = "UTF-8"
        case utf16LE = "UTF-16LE"
        case utf16BE = "UTF-16BE"
        case windows1252 = "Windows-1252"
    }

    /// Why bytes are not text.
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// Zero bytes, or control characters, in what is no UTF-16: a binary file.
        case binary
        /// A byte-order mark names an encoding the bytes then break.
        case invalid(Encoding, offset: Int)

        var description: String {
            switch self {
            case .binary: "it is not text (binary content)"
            case .invalid(let encoding, let offset): "it is marked \(encoding.rawValue) but is not valid \(encoding.rawValue) at byte \(offset)"
            }
        }
    }

    /// The text of `bytes` and the encoding it was read in.
    static func decode(_ bytes: Data) throws(Failure) -> (text: String, encoding: Encoding) {
        let array = [UInt8](bytes)
        if array.starts(with: [0xEF, 0xBB, 0xBF]) {
            let body = array[3...]
            if let offset = firstInvalidUTF8(body) { throw .invalid(.utf8, offset: offset + 3) }
            return (String(decoding: body, as: UTF8.self), .utf8)
        }
        if array.starts(with: [0xFF, 0xFE]) { return (try utf16(array[2...], bigEndian: false, marked: true), .utf16LE) }
        if array.starts(with: [0xFE, 0xFF]) { return (try utf16(array[2...], bigEndian: true, marked: true), .utf16BE) }
        if let unmarked = unmarkedUTF16(array) {
            return (try utf16(array[...], bigEndian: unmarked == .utf16BE, marked: false), unmarked)
        }
        if isBinary(array) { throw .binary }
        if firstInvalidUTF8(array[...]) == nil { return (String(decoding: array, as: UTF8.self), .utf8) }
        return (windows1252(array), .windows1252)
    }

    /// The offset of the first byte that is not part of a valid UTF-8 sequence; nil when all are.
    static func firstInvalidUTF8(_ bytes: ArraySlice<UInt8>) -> Int? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        var consumed = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                consumed += UTF8.width(scalar)
                offset = consumed
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// UTF-16 without a byte-order mark: most of the first bytes' even (big endian) or odd
    /// (little endian) positions are zero, as ASCII-range text makes them.
    private static func unmarkedUTF16(_ bytes: [UInt8]) -> Encoding? {
        let sample = bytes.prefix(4096)
        guard sample.count >= 4, sample.count % 2 == 0 else { return nil }
        var evenZeros = 0, oddZeros = 0
        for (index, byte) in sample.enumerated() where byte == 0 {
            if index % 2 == 0 { evenZeros += 1 } else { oddZeros += 1 }
        }
        let pairs = sample.count / 2
        if oddZeros * 10 >= pairs * 7, evenZeros * 10 < pairs { return .utf16LE }
        if evenZeros * 10 >= pairs * 7, oddZeros * 10 < pairs { return .utf16BE }
        return nil
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool, marked: Bool) throws(Failure) -> String {
        let encoding: Encoding = bigEndian ? .utf16BE : .utf16LE
        let start = marked ? 2 : 0
        guard bytes.count % 2 == 0 else { throw .invalid(encoding, offset: start + bytes.count - 1) }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let first = UInt16(bytes[index]), second = UInt16(bytes[index + 1])
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        var iterator = units.makeIterator()
        var decoder = UTF16()
        var text = ""
        text.reserveCapacity(units.count)
        var unitOffset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar.value == 0 { throw .binary }
                text.unicodeScalars.append(scalar)
                unitOffset += UTF16.width(scalar)
            case .emptyInput: return text
            case .error: throw .invalid(encoding, offset: start + unitOffset * 2)
            }
        }
    }

    /// Zero bytes, or many C0 controls other than whitespace and form feed: no text file
    /// looks like that.
    private static func isBinary(_ bytes: [UInt8]) -> Bool {
        let sample = bytes.prefix(65536)
        if sample.contains(0) { return true }
        let controls = sample.filter { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0x0C && $0 != 0x1A }.count
        return controls * 100 > max(sample.count, 1)
    }

    /// Windows-1252 bytes as text (its five unassigned bytes read as Latin-1 controls, dropped
    /// later by the XHTML writer).
    static func windows1252(_ bytes: [UInt8]) -> String {
        var text = ""
        text.reserveCapacity(bytes.count)
        for byte in bytes {
            if (0x80...0x9F).contains(byte) {
                text.unicodeScalars.append(Unicode.Scalar(cp1252High[Int(byte - 0x80)]) ?? "\u{FFFD}")
            } else {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return text
    }

    private static let cp1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}
