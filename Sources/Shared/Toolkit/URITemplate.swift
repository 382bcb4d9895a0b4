/// An RFC 6570 URI template (levels 1–3, without prefix and explode modifiers), as used by
/// templated links: `…/register{?id,name}`, `…/renew{&end,id,name}`, `search{?query}`.
public struct URITemplate: Sendable {
    public let template: String

    public init(_ template: String) {
        self.template = template
    }

    /// The names of the template's variables, in order.
    public var variables: [String] {
        expressions.flatMap { $0.names }
    }

    /// The template with its expressions replaced; undefined variables are omitted.
    public func expand(_ values: [String: String]) -> String {
        var output = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            output += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                output += rest[open...]
                return output
            }
            output += Expression(rest[rest.index(after: open)..<close]).expand(values)
            rest = rest[rest.index(after: close)...]
        }
        return output + rest
    }

    private var expressions: [Expression] {
        var result: [Expression] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result.append(Expression(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return result
    }

    private struct Expression {
        let op: Character?
        let names: [String]

        init(_ body: Substring) {
            if let first = body.first, "+#./;?&".contains(first) {
                op = first
                names = body.dropFirst().split(separator: ",").map { String($0).trimmed }
            } else {
                op = nil
                names = body.split(separator: ",").map { String($0).trimmed }
            }
        }

        func expand(_ values: [String: String]) -> String {
            let defined = names.compactMap { name in values[name].map { (name, $0) } }
            guard !defined.isEmpty else { return "" }
            let allowReserved = op == "+" || op == "#"
            func encode(_ value: String) -> String { URITemplate.percentEncode(value, allowReserved: allowReserved) }
            switch op {
            case "?", "&":
                return String(op!) + defined.map { "\($0.0)=\(encode($0.1))" }.joined(separator: "&")
            case ";":
                return defined.map { $0.1.isEmpty ? ";\($0.0)" : ";\($0.0)=\(encode($0.1))" }.joined()
            case ".", "/":
                return defined.map { String(op!) + encode($0.1) }.joined()
            case "#":
                return "#" + defined.map { encode($0.1) }.joined(separator: ",")
            default:
                return defined.map { encode($0.1) }.joined(separator: ",")
            }
        }
    }

    /// Percent-encodes every byte except the unreserved set (and, if allowed, the reserved set
    /// and the percent-encoded triplets already there, RFC 6570 §3.2.3).
    static func percentEncode(_ value: String, allowReserved: Bool) -> String {
        var out = ""
        let bytes = Array(value.utf8)
        for (index, byte) in bytes.enumerated() {
            let scalar = Unicode.Scalar(byte)
            let character = Character(scalar)
            let unreserved = byte < 0x80 && (character.isLetter || character.isNumber || "-._~".contains(character))
            let reserved = byte < 0x80 && ":/?#[]@!$&'()*+,;=".contains(character)
            let isTriplet = byte == UInt8(ascii: "%") && index + 2 < bytes.count
                && isHexDigit(bytes[index + 1]) && isHexDigit(bytes[index + 2])
            if unreserved || (allowReserved && (reserved || isTriplet)) {
                out.unicodeScalars.append(scalar)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
             UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }
}
