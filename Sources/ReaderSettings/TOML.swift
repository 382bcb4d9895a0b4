/// A value of the TOML subset `config.toml` and the theme files use.
public enum TOMLValue: Sendable, Hashable {
    case string(String)
    case integer(Int)
    case boolean(Bool)
    case array([TOMLValue])
    case table([String: TOMLValue])

    public var string: String? { if case .string(let value) = self { value } else { nil } }
    public var integer: Int? { if case .integer(let value) = self { value } else { nil } }
    public var boolean: Bool? { if case .boolean(let value) = self { value } else { nil } }
    public var table: [String: TOMLValue]? { if case .table(let value) = self { value } else { nil } }
    /// An array of strings, or one string taken as a one-element array.
    public var strings: [String]? {
        switch self {
        case .string(let value): [value]
        case .array(let values): values.compactMap(\.string)
        default: nil
        }
    }

    public subscript(key: String) -> TOMLValue? { table?[key] }
}

/// Why a TOML file was refused: the line and what is wrong there.
public struct TOMLError: Error, Sendable, Hashable, CustomStringConvertible {
    public let line: Int
    public let message: String
    public var description: String { "line \(line): \(message)" }
}

/// A parser for the subset of TOML 1.0 Lectern's files need: `[table]` and `[dotted.table]`
/// headers, `key = value` with bare or quoted (dotted) keys, basic strings with escapes,
/// literal strings, integers (with `_`), booleans, arrays (of those, across lines), and
/// comments. Dates, floats, inline tables and array-of-table headers are refused with the
/// line number.
///
/// (A TOML package would add a dependency and several thousand lines for two small files.)
public enum TOMLParser {
    /// The deepest nesting accepted, of arrays in a value and of parts in a dotted key: the
    /// parser recurses on both, and a hostile file with 100,000 levels would overflow the stack.
    public static let maxDepth = 32

    public static func parse(_ text: String) throws(TOMLError) -> [String: TOMLValue] {
        var lines: [String: Int] = [:]
        return try parse(text, lines: &lines)
    }

    /// Parses `text`, and gives in `lines` the line of each key and table header, by dotted
    /// path (`reader.text_width`), so that a value found wrong later can name its line.
    public static func parse(_ text: String, lines: inout [String: Int]) throws(TOMLError) -> [String: TOMLValue] {
        var scanner = Scanner(Array(text.unicodeScalars))
        var root: [String: TOMLValue] = [:]
        var current: [String] = []
        var definedTables = Set<[String]>()
        while true {
            scanner.skipBlankLinesAndComments()
            guard let scalar = scanner.peek() else { break }
            // Errors found once the line is read (a key or table defined twice) name this line.
            let line = scanner.line
            if scalar == "[" {
                scanner.advance()
                if scanner.peek() == "[" { throw scanner.error("arrays of tables are not supported") }
                scanner.skipSpaces()
                let path = try scanner.key()
                scanner.skipSpaces()
                guard scanner.peek() == "]" else { throw scanner.error("expected ] after the table name") }
                scanner.advance()
                try scanner.endOfLine()
                guard definedTables.insert(path).inserted else {
                    throw TOMLError(line: line, message: "table [\(path.joined(separator: "."))] defined twice")
                }
                try insert(.table([:]), at: path, into: &root, line: line, mergeTables: true)
                lines[path.joined(separator: ".")] = line
                current = path
            } else {
                let key = try scanner.key()
                scanner.skipSpaces()
                guard scanner.peek() == "=" else { throw scanner.error("expected = after the key") }
                scanner.advance()
                scanner.skipSpaces()
                let value = try scanner.value()
                try scanner.endOfLine()
                try insert(value, at: current + key, into: &root, line: line, mergeTables: false)
                lines[(current + key).joined(separator: ".")] = line
            }
        }
        return root
    }

    private static func insert(_ value: TOMLValue, at path: [String], into table: inout [String: TOMLValue], line: Int,
                               mergeTables: Bool) throws(TOMLError) {
        let key = path[0]
        if path.count == 1 {
            if let existing = table[key] {
                if mergeTables, existing.table != nil { return }
                throw TOMLError(line: line, message: "key \"\(key)\" defined twice")
            }
            table[key] = value
            return
        }
        var child: [String: TOMLValue]
        switch table[key] {
        case nil: child = [:]
        case .table(let existing)?: child = existing
        default: throw TOMLError(line: line, message: "\"\(key)\" is not a table")
        }
        try insert(value, at: Array(path.dropFirst()), into: &child, line: line, mergeTables: mergeTables)
        table[key] = .table(child)
    }

    struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0
        var line = 1

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        func peek() -> Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        mutating func advance() {
            if scalars[index] == "\n" { line += 1 }
            index += 1
        }

        func error(_ message: String) -> TOMLError { TOMLError(line: line, message: message) }

        mutating func skipSpaces() {
            while let scalar = peek(), scalar == " " || scalar == "\t" { advance() }
        }

        mutating func skipComment() {
            if peek() == "#" { while let scalar = peek(), scalar != "\n" { advance() } }
        }

        mutating func skipBlankLinesAndComments() {
            while true {
                skipSpaces()
                skipComment()
                if let scalar = peek(), scalar == "\n" || scalar == "\r" { advance() } else { return }
            }
        }

        /// Whitespace and newlines inside arrays.
        mutating func skipWhitespaceAndComments() {
            while let scalar = peek() {
                if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" { advance() } else if scalar == "#" { skipComment() } else { return }
            }
        }

        mutating func endOfLine() throws(TOMLError) {
            skipSpaces()
            skipComment()
            if peek() == "\r" { advance() }
            guard let scalar = peek() else { return }
            guard scalar == "\n" else { throw error("unexpected text after the value") }
            advance()
        }

        mutating func key() throws(TOMLError) -> [String] {
            var parts: [String] = []
            while true {
                guard parts.count < TOMLParser.maxDepth else {
                    throw error("key nested more than \(TOMLParser.maxDepth) levels deep")
                }
                skipSpaces()
                if peek() == "\"" || peek() == "'" {
                    parts.append(try quoted())
                } else {
                    var bare = ""
                    while let scalar = peek(), scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-" {
                        bare.unicodeScalars.append(scalar)
                        advance()
                    }
                    guard !bare.isEmpty else { throw error("expected a key") }
                    parts.append(bare)
                }
                skipSpaces()
                guard peek() == "." else { return parts }
                advance()
            }
        }

        mutating func quoted() throws(TOMLError) -> String {
            let quote = peek()!
            advance()
            if peek() == quote, index + 1 < scalars.count, scalars[index + 1] == quote {
                throw error("multi-line strings are not supported")
            }
            var result = ""
            while let scalar = peek() {
                if scalar == "\n" { break }
                advance()
                if scalar == quote { return result }
                if quote == "\"", scalar == "\\" {
                    guard let escaped = peek() else { break }
                    advance()
                    switch escaped {
                    case "n": result += "\n"
                    case "t": result += "\t"
                    case "r": result += "\r"
                    case "\"": result += "\""
                    case "\\": result += "\\"
                    case "b": result += "\u{8}"
                    case "f": result += "\u{C}"
                    case "e": result += "\u{1B}"
                    case "u", "U":
                        let count = escaped == "u" ? 4 : 8
                        var hex = ""
                        for _ in 0..<count {
                            guard let digit = peek() else { throw error("truncated \\\(escaped) escape") }
                            hex.unicodeScalars.append(digit)
                            advance()
                        }
                        guard let value = UInt32(hex, radix: 16), let unicode = Unicode.Scalar(value) else {
                            throw error("invalid \\\(escaped) escape")
                        }
                        result.unicodeScalars.append(unicode)
                    default: throw error("invalid escape \\\(escaped)")
                    }
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
            throw error("unterminated string")
        }

        mutating func value(depth: Int = 0) throws(TOMLError) -> TOMLValue {
            guard let scalar = peek() else { throw error("expected a value") }
            switch scalar {
            case "\"", "'":
                return .string(try quoted())
            case "[":
                guard depth < TOMLParser.maxDepth else {
                    throw error("arrays nested more than \(TOMLParser.maxDepth) levels deep")
                }
                advance()
                var items: [TOMLValue] = []
                while true {
                    skipWhitespaceAndComments()
                    if peek() == "]" { advance(); return .array(items) }
                    items.append(try value(depth: depth + 1))
                    skipWhitespaceAndComments()
                    if peek() == "," { advance(); continue }
                    if peek() == "]" { advance(); return .array(items) }
                    throw error("expected , or ] in the array")
                }
            case "{":
                throw error("inline tables are not supported")
            default:
                var word = ""
                while let next = peek(), next != " ", next != "\t", next != "\n", next != "\r", next != ",", next != "]", next != "#" {
                    word.unicodeScalars.append(next)
                    advance()
                }
                if word == "true" { return .boolean(true) }
                if word == "false" { return .boolean(false) }
                let digits = word.filter { $0 != "_" }
                if !digits.isEmpty, let number = Int(digits) { return .integer(number) }
                throw error(word.isEmpty ? "expected a value" : "unsupported value \"\(word)\"")
            }
        }
    }
}
