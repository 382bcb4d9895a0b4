/// Why a Lua table literal could not be read.
struct LuaParseError: Error, Sendable, Equatable {
    let message: String
    let line: Int

    var description: String { "line \(line): \(message)" }
}

/// A parser of Lua table literals — the data part of Lua only, never evaluated: `return`
/// and one value made of tables (`[key] = v`, `name = v`, positional values), strings (quoted
/// with every escape of Lua 5.1–5.4, `\ddd` included, or in long brackets), numbers,
/// booleans and `nil`, with comments. Anything else (a name, a call, an operator) is an
/// error. Nesting and the number of values are bounded, so that a hostile file exhausts
/// neither the stack nor the memory.
struct LuaTableParser {
    static let maximumDepth = 100
    static let maximumValues = 5_000_000

    private let bytes: [UInt8]
    private var index = 0
    private var valueCount = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses a chunk that is `return <value>` (or the value alone).
    static func parse(_ bytes: [UInt8]) throws(LuaParseError) -> LuaValue? {
        var parser = LuaTableParser(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        try parser.skipSpace()
        if parser.peekWord() == "return" {
            parser.index += 6
            try parser.skipSpace()
        }
        let value = try parser.value(depth: 0)
        try parser.skipSpace()
        if parser.peek == UInt8(ascii: ";") {
            parser.index += 1
            try parser.skipSpace()
        }
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func error(_ message: String) -> LuaParseError {
        var line = 1
        for byte in bytes[..<min(index, bytes.count)] where byte == 0x0A { line += 1 }
        return LuaParseError(message: message, line: line)
    }

    private mutating func value(depth: Int) throws(LuaParseError) -> LuaValue? {
        valueCount += 1
        guard valueCount <= Self.maximumValues else { throw error("more than \(Self.maximumValues) values") }
        guard let byte = peek else { throw error("a value was expected, the file ends") }
        switch byte {
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { throw error("tables nested deeper than \(Self.maximumDepth)") }
            return .table(try table(depth: depth + 1))
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return .string(try quotedString())
        case UInt8(ascii: "["):
            guard let level = longBracketLevel() else { throw error("unexpected '['") }
            return .string(String(decoding: try longBracket(level: level), as: UTF8.self))
        case UInt8(ascii: "-"):
            // Only a numeral may follow: a chain of minus signs would recurse without bound.
            index += 1
            try skipSpace()
            guard let next = peek, (0x30...0x39).contains(next) || next == UInt8(ascii: ".") else {
                throw error("'-' before something that is not a number")
            }
            return .number(-(try number()))
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."):
            return .number(try number())
        default:
            switch peekWord() {
            case "true": index += 4; return .bool(true)
            case "false": index += 5; return .bool(false)
            case "nil": index += 3; return nil
            case let word?: throw error("'\(word.prefix(40))' is not a literal (only data is read, never code)")
            case nil: throw error("unexpected character")
            }
        }
    }

    private mutating func table(depth: Int) throws(LuaParseError) -> LuaTable {
        index += 1 // {
        var table = LuaTable()
        var position = 1.0
        while true {
            try skipSpace()
            guard let byte = peek else { throw error("a table is not closed") }
            if byte == UInt8(ascii: "}") {
                index += 1
                return table
            }
            var key: LuaKey?
            if byte == UInt8(ascii: "["), longBracketLevel() == nil {
                index += 1
                try skipSpace()
                guard let keyValue = try value(depth: depth) else { throw error("a nil table key") }
                key = try tableKey(keyValue)
                try skipSpace()
                try expect("]")
                try skipSpace()
                try expect("=")
            } else if let word = peekWord(), !["true", "false", "nil"].contains(word) {
                let start = index
                index += word.utf8.count
                try skipSpace()
                if peek == UInt8(ascii: "="), index + 1 >= bytes.count || bytes[index + 1] != UInt8(ascii: "=") {
                    index += 1
                    key = .string(word)
                } else {
                    index = start
                    throw error("'\(word.prefix(40))' is not a literal (only data is read, never code)")
                }
            }
            try skipSpace()
            let element = try value(depth: depth)
            if let key {
                if let element { table.entries.append(LuaTable.Entry(key: key, value: element)) }
            } else {
                if let element { table.entries.append(LuaTable.Entry(key: .number(position), value: element)) }
                position += 1
            }
            try skipSpace()
            if peek == UInt8(ascii: ",") || peek == UInt8(ascii: ";") {
                index += 1
            } else if peek != UInt8(ascii: "}") {
                throw error("',' or '}' expected in a table")
            }
        }
    }

    private func tableKey(_ value: LuaValue) throws(LuaParseError) -> LuaKey {
        switch value {
        case .string(let text): return .string(text)
        case .number(let number):
            guard !number.isNaN else { throw error("a NaN table key") }
            return .number(number)
        case .bool(let flag): return .bool(flag)
        case .table: throw error("a table as a table key")
        }
    }

    private mutating func expect(_ character: Character) throws(LuaParseError) {
        guard let ascii = character.asciiValue, peek == ascii else { throw error("'\(character)' expected") }
        index += 1
    }

    /// The name starting here (`[A-Za-z_][A-Za-z0-9_]*`), not consumed.
    private func peekWord() -> String? {
        func isStart(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F }
        guard let first = peek, isStart(first) else { return nil }
        var end = index + 1
        while end < bytes.count, isStart(bytes[end]) || (0x30...0x39).contains(bytes[end]) { end += 1 }
        return String(decoding: bytes[index..<end], as: UTF8.self)
    }

    /// Skips white space and comments (`-- …` to the end of the line, `--[[ … ]]`, `--[==[ … ]==]`).
    private mutating func skipSpace() throws(LuaParseError) {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C:
                index += 1
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                index += 2
                if peek == UInt8(ascii: "["), let level = longBracketLevel() {
                    _ = try longBracket(level: level)
                } else {
                    while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                }
            default:
                return
            }
        }
    }

    /// The level of a long bracket opening here (`[[` is 0, `[==[` is 2), or nil.
    private func longBracketLevel() -> Int? {
        guard peek == UInt8(ascii: "[") else { return nil }
        var end = index + 1
        while end < bytes.count, bytes[end] == UInt8(ascii: "=") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "[") else { return nil }
        return end - index - 1
    }

    /// The bytes of a long bracket of `level`, a first line break dropped as Lua does.
    private mutating func longBracket(level: Int) throws(LuaParseError) -> ArraySlice<UInt8> {
        index += level + 2
        if peek == 0x0D { index += 1; if peek == 0x0A { index += 1 } } else if peek == 0x0A { index += 1; if peek == 0x0D { index += 1 } }
        let start = index
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "]") {
                var end = index + 1
                while end < bytes.count, bytes[end] == UInt8(ascii: "="), end - index - 1 < level { end += 1 }
                if end - index - 1 == level, end < bytes.count, bytes[end] == UInt8(ascii: "]") {
                    let content = bytes[start..<index]
                    index = end + 1
                    return content
                }
            }
            index += 1
        }
        throw error("a long string or comment is not closed")
    }

    private mutating func number() throws(LuaParseError) -> Double {
        let start = index
        if peek == UInt8(ascii: "0"), index + 1 < bytes.count, bytes[index + 1] | 0x20 == UInt8(ascii: "x") {
            index += 2
            var value = 0.0
            let digitsStart = index
            while let byte = peek, let digit = Self.hexValue(byte) {
                value = value * 16 + Double(digit)
                index += 1
            }
            guard index > digitsStart else { throw error("a malformed number") }
            return value
        }
        while let byte = peek, (0x30...0x39).contains(byte) || byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e")
            || ((byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) && bytes[index - 1] | 0x20 == UInt8(ascii: "e")) {
            index += 1
        }
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
            throw error("a malformed number")
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x61...0x66: byte - 0x61 + 10
        case 0x41...0x46: byte - 0x41 + 10
        default: nil
        }
    }

    /// A string in double or single quotes, its escapes decoded into bytes, then read as UTF-8
    /// (Lua strings are bytes: `\195\169` is "é"; an invalid sequence becomes U+FFFD).
    private mutating func quotedString() throws(LuaParseError) -> String {
        let quote = bytes[index]
        index += 1
        let start = index
        while index < bytes.count, bytes[index] != quote, bytes[index] != UInt8(ascii: "\\"), bytes[index] != 0x0A {
            index += 1
        }
        if peek == quote {
            defer { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        var out = Array(bytes[start..<index])
        while true {
            guard let byte = peek, byte != 0x0A, byte != 0x0D else { throw error("a string is not closed") }
            index += 1
            if byte == quote { return String(decoding: out, as: UTF8.self) }
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                continue
            }
            try escape(into: &out)
        }
    }

    private mutating func escape(into out: inout [UInt8]) throws(LuaParseError) {
        guard let byte = peek else { throw error("a string is not closed") }
        index += 1
        switch byte {
        case UInt8(ascii: "a"): out.append(0x07)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "v"): out.append(0x0B)
        case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): out.append(byte)
        case 0x0A, 0x0D:
            // A backslash before a line break is the line break (how `%q` writes "\n").
            out.append(0x0A)
            if let next = peek, next != byte, next == 0x0A || next == 0x0D { index += 1 }
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            var value = Int(byte - 0x30)
            for _ in 0..<2 {
                guard let digit = peek, (0x30...0x39).contains(digit) else { break }
                value = value * 10 + Int(digit - 0x30)
                index += 1
            }
            guard value <= 255 else { throw error("a decimal escape above 255") }
            out.append(UInt8(value))
        case UInt8(ascii: "x"):
            guard index + 1 < bytes.count, let high = Self.hexValue(bytes[index]), let low = Self.hexValue(bytes[index + 1]) else {
                throw error("a malformed \\x escape")
            }
            out.append(high << 4 | low)
            index += 2
        case UInt8(ascii: "z"):
            while let next = peek, [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C].contains(next) { index += 1 }
        case UInt8(ascii: "u"):
            try expect("{")
            var value: UInt32 = 0
            var digits = 0
            while let next = peek, let digit = Self.hexValue(next) {
                guard value <= 0x10FFFF else { throw error("a \\u escape beyond Unicode") }
                value = value << 4 | UInt32(digit)
                digits += 1
                index += 1
            }
            try expect("}")
            guard digits > 0, let scalar = Unicode.Scalar(value) else { throw error("a malformed \\u escape") }
            out.append(contentsOf: Array(String(scalar).utf8))
        default:
            throw error("an invalid escape in a string")
        }
    }
}
