/// Serialises ``JSONValue``s.
///
/// The `canonical` style is the one Readium LCP signers and the Feedbooks audiobook signer
/// produce (Go's `encoding/json` with HTML escaping off): members sorted by the UTF-8 bytes of
/// their keys, no whitespace, non-ASCII written raw, `/` `<` `>` `&` not escaped, `\b \f \n \r \t`
/// short escapes, other controls as lower-case `\u00xx`, U+2028 and U+2029 escaped, numbers as
/// their source literal.
public struct JSONWriter: Sendable {
    /// How the output is laid out.
    public enum Style: Sendable {
        /// No whitespace, members in their order.
        case compact
        /// Two-space indentation, members in their order; for people.
        case pretty
        /// No whitespace, members sorted (see the type's documentation).
        case canonical
    }

    public var style: Style

    public init(style: Style = .compact) {
        self.style = style
    }

    /// The UTF-8 bytes of `value`.
    public func bytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        write(value, into: &out, indent: 0)
        return out
    }

    /// `value` as a string.
    public func string(_ value: JSONValue) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    private func write(_ value: JSONValue, into out: inout [UInt8], indent: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let literal): out.append(contentsOf: literal.utf8)
        case .string(let text): Self.writeString(text, escapingTerminalControls: style != .canonical, into: &out)
        case .array(let elements):
            guard !elements.isEmpty else { out.append(contentsOf: "[]".utf8); return }
            out.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                newline(into: &out, indent: indent + 1)
                write(element, into: &out, indent: indent + 1)
            }
            newline(into: &out, indent: indent)
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else { out.append(contentsOf: "{}".utf8); return }
            var members = object.members
            if style == .canonical {
                members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            }
            out.append(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                newline(into: &out, indent: indent + 1)
                Self.writeString(member.key, escapingTerminalControls: style != .canonical, into: &out)
                out.append(UInt8(ascii: ":"))
                if style == .pretty { out.append(UInt8(ascii: " ")) }
                write(member.value, into: &out, indent: indent + 1)
            }
            newline(into: &out, indent: indent)
            out.append(UInt8(ascii: "}"))
        }
    }

    private func newline(into out: inout [UInt8], indent: Int) {
        guard style == .pretty else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Writes `text` as a JSON string. With `escapingTerminalControls` (every style but the
    /// canonical one, which must stay byte-identical to what signers produce), DEL, the C1
    /// controls (U+0080–U+009F, CSI among them) and the bidi overrides are escaped too, so that
    /// JSON printed on a terminal can carry no escape sequence and reorder no line.
    static func writeString(_ text: String, escapingTerminalControls: Bool, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // A string of printable ASCII other than the quote and the backslash (ids, dates, most
        // keys and quotes) is copied at once: per-scalar appends were most of a large export.
        let copied = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) else { return false }
            out.append(contentsOf: utf8)
            return true
        }
        if copied == true {
            out.append(UInt8(ascii: "\""))
            return
        }
        for scalar in text.unicodeScalars {
            // Printable ASCII other than the quote and the backslash goes as it is: most of
            // any text, written without the matching below (large exports spend their time here).
            let value = scalar.value
            if value >= 0x20, value < 0x7F, value != 0x22, value != 0x5C {
                out.append(UInt8(truncatingIfNeeded: value))
                continue
            }
            switch scalar {
            case "\"": out.append(contentsOf: [0x5C, 0x22])
            case "\\": out.append(contentsOf: [0x5C, 0x5C])
            case "\n": out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case "\r": out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case "\t": out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case "\u{08}": out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case "\u{0C}": out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case "\u{7F}"..."\u{9F}" where escapingTerminalControls, "\u{202A}"..."\u{202E}" where escapingTerminalControls,
                 "\u{2066}"..."\u{2069}" where escapingTerminalControls, "\u{2028}", "\u{2029}", "\u{00}"..."\u{1F}":
                out.append(contentsOf: "\\u".utf8)
                for shift in stride(from: 12, through: 0, by: -4) {
                    out.append(hexDigits[Int((value >> UInt32(shift)) & 0xF)])
                }
            default:
                UTF8.encode(scalar) { out.append($0) }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
