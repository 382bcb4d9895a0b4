import FoundationEssentials

/// An RFC 8259 JSON parser producing ``JSONValue``s, strict about syntax and bounded in depth so
/// that a hostile document cannot exhaust the stack.
public struct JSONParser {
    /// Deepest nesting accepted.
    public static let maxDepth = 256

    /// The document, valid only during ``parse(_:)``: reading through a buffer spares the
    /// bounds check of each byte.
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    /// Parses one JSON document (a leading UTF-8 byte-order mark is ignored).
    public static func parse(_ data: some Collection<UInt8>) throws(JSONError) -> JSONValue {
        let document = Array(data)
        let result: Result<JSONValue, JSONError> = document.withUnsafeBufferPointer { bytes in
            var parser = JSONParser(bytes: bytes)
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
            parser.skipWhitespace()
            do throws(JSONError) {
                let value = try parser.parseValue()
                parser.skipWhitespace()
                guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses a JSON document from a string.
    public static func parse(_ string: String) throws(JSONError) -> JSONValue {
        try parse(Array(string.utf8))
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private func error(_ message: String) -> JSONError {
        JSONError(message: message, offset: index)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of JSON") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character")
        }
    }

    private mutating func expect(_ word: String) throws(JSONError) {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error("invalid literal") }
            index += 1
        }
    }

    private mutating func enter() throws(JSONError) {
        depth += 1
        if depth > Self.maxDepth { throw error("JSON nested too deeply") }
    }

    private mutating func parseObject() throws(JSONError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [JSONObject.Member] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(members))
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONObject.Member(key: key, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(JSONObject(members)) }
            throw error("expected ',' or '}'")
        }
    }

    private mutating func parseArray() throws(JSONError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw error("expected ',' or ']'")
        }
    }

    private mutating func parseNumber() throws(JSONError) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private mutating func parseString() throws(JSONError) -> String {
        index += 1
        // Most strings have no escape: they are made from their bytes at once, and validated
        // only when one is not ASCII (per-byte appends and the generic validation were most
        // of the time of reading a large annotation set).
        let start = index
        var highBits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                if let text = Self.string(UnsafeBufferPointer(rebasing: bytes[start..<index - 1]), ascii: highBits < 0x80) { return text }
                throw error("invalid UTF-8 in string")
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            highBits |= byte
            index += 1
        }
        var utf8 = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                // Invalid UTF-8 is an error rather than silently replaced.
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw error("invalid UTF-8 in string")
                }
                return text
            }
            if byte < 0x20 { throw error("control character in string") }
            index += 1
            if byte != UInt8(ascii: "\\") {
                utf8.append(byte)
                continue
            }
            guard index < bytes.count else { throw error("unterminated string") }
            let escape = bytes[index]
            index += 1
            let scalar: Unicode.Scalar
            switch escape {
            case UInt8(ascii: "\""): scalar = "\""
            case UInt8(ascii: "\\"): scalar = "\\"
            case UInt8(ascii: "/"): scalar = "/"
            case UInt8(ascii: "b"): scalar = "\u{08}"
            case UInt8(ascii: "f"): scalar = "\u{0C}"
            case UInt8(ascii: "n"): scalar = "\n"
            case UInt8(ascii: "r"): scalar = "\r"
            case UInt8(ascii: "t"): scalar = "\t"
            case UInt8(ascii: "u"): scalar = try parseUnicodeEscape()
            default: throw error("invalid escape in string")
            }
            utf8.append(contentsOf: String(scalar).utf8)
        }
    }

    /// The string of `utf8`, nil when it is not valid UTF-8; `ascii`: all its bytes are below 0x80.
    private static func string(_ utf8: UnsafeBufferPointer<UInt8>, ascii: Bool) -> String? {
        let text = String(decoding: utf8, as: UTF8.self)
        // Decoding repairs invalid UTF-8, so the text is the same bytes only when they were valid.
        return ascii || text.utf8.elementsEqual(utf8) ? text : nil
    }

    /// The scalar of a `\uXXXX` escape (after the `u`), joining surrogate pairs; a lone
    /// surrogate becomes U+FFFD, as Go and browsers do.
    private mutating func parseUnicodeEscape() throws(JSONError) -> Unicode.Scalar {
        let first = try parseHex4()
        if (0xDC00..<0xE000).contains(first) { return "\u{FFFD}" }
        guard (0xD800..<0xDC00).contains(first) else { return Unicode.Scalar(first)! }
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
        else { return "\u{FFFD}" }
        let save = index
        index += 2
        let second = try parseHex4()
        guard (0xDC00..<0xE000).contains(second) else {
            index = save
            return "\u{FFFD}"
        }
        return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
    }

    private mutating func parseHex4() throws(JSONError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}

/// Why a JSON document could not be parsed.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    /// Byte offset of the problem.
    public let offset: Int

    public var description: String { "invalid JSON at byte \(offset): \(message)" }
}
