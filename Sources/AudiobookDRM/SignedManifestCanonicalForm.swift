import Shared

/// The bytes a Feedbooks manifest signature covers (audiobook-drm.md §2): the manifest's own
/// JSON tree without `metadata["…/audiobooks/signature"]`, written in the canonical style
/// (members sorted, no whitespace, `/` and non-ASCII written raw, numbers as written).
///
/// The real signer's output is only known for ASCII documents with integers. Where writers
/// differ — non-integer numbers, control characters, U+2028/U+2029 — ``candidates(of:)``
/// also offers the other common renderings of the **same parsed document**, tried only after
/// the primary one failed; accepting any of them does not weaken the check.
enum SignedManifestCanonicalForm {
    /// The manifest tree without the signature member.
    static func unsigned(_ json: JSONValue) -> JSONValue {
        guard var object = json.object, var metadata = object["metadata"]?.object else { return json }
        metadata[FeedbooksVocabulary.signatureKey] = nil
        object["metadata"] = .object(metadata)
        return .object(object)
    }

    /// The primary canonical form of an unsigned tree.
    static func bytes(_ unsigned: JSONValue) -> [UInt8] {
        JSONWriter(style: .canonical).bytes(unsigned)
    }

    /// The renderings to try, primary first: for each way of writing non-integer numbers (as
    /// written, shortest round trip like Python and Jackson, the `xEy` form of LCP §5.3), each
    /// way of escaping strings (Go's, Python's and Jackson's, LCP's). Variants that a document
    /// cannot produce (no fractional number, no control character) are not generated.
    static func candidates(of unsigned: JSONValue) -> [() -> [UInt8]] {
        let hasFractions = containsNonIntegerNumber(unsigned)
        let hasEscapes = containsDivergentCharacter(unsigned)
        let numberForms: [NumberForm] = hasFractions ? NumberForm.allCases : [.asWritten]
        let escapeStyles: [EscapeStyle] = hasEscapes ? EscapeStyle.allCases : [.go]
        var result: [() -> [UInt8]] = []
        for numbers in numberForms {
            for escapes in escapeStyles {
                result.append {
                    let tree = numbers == .asWritten ? unsigned : rewritingNumbers(unsigned, numbers)
                    return escapes.rewrite(bytes(tree))
                }
            }
        }
        return result
    }

    /// Whether any object, at any depth, has two members with the same name. A canonical form
    /// made from a map cannot, and readers disagree on which duplicate wins, so a signed
    /// manifest with duplicates is refused.
    static func hasDuplicateMembers(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let object):
            var seen = Set<[Unicode.Scalar]>()
            for member in object.members {
                if !seen.insert(Array(member.key.unicodeScalars)).inserted { return true }
                if hasDuplicateMembers(member.value) { return true }
            }
            return false
        case .array(let elements):
            return elements.contains(where: hasDuplicateMembers)
        default:
            return false
        }
    }

    // MARK: Numbers

    /// How a non-integer number is written.
    enum NumberForm: CaseIterable {
        /// The literal of the manifest (Go `UseNumber`).
        case asWritten
        /// The shortest decimal that reads back as the same double (Python, Jackson).
        case shortestRoundTrip
        /// One digit before the point and an `E` exponent (`5.673E2`), LCP §5.3.
        case scientific
    }

    static func isNonInteger(_ literal: String) -> Bool {
        literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
    }

    static func containsNonIntegerNumber(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let literal): isNonInteger(literal)
        case .array(let elements): elements.contains(where: containsNonIntegerNumber)
        case .object(let object): object.members.contains { containsNonIntegerNumber($0.value) }
        default: false
        }
    }

    static func rewritingNumbers(_ value: JSONValue, _ form: NumberForm) -> JSONValue {
        switch value {
        case .number(let literal) where isNonInteger(literal):
            guard let double = Double(literal), double.isFinite else { return value }
            return .number(form == .scientific ? scientific(double) : double.description)
        case .array(let elements):
            return .array(elements.map { rewritingNumbers($0, form) })
        case .object(let object):
            return .object(JSONObject(object.members.map { JSONObject.Member(key: $0.key, value: rewritingNumbers($0.value, form)) }))
        default:
            return value
        }
    }

    /// `5.673E2` for 567.3, `5E-1` for 0.5, `0E0` for zero.
    static func scientific(_ value: Double) -> String {
        guard value != 0 else { return "0E0" }
        // The shortest round-trip digits, from Swift's own description.
        let text = abs(value).description.lowercased()
        let (significand, exponentText) = text.contains("e")
            ? (String(text.prefix { $0 != "e" }), String(text.drop { $0 != "e" }.dropFirst()))
            : (text, "0")
        var exponent = Int(exponentText) ?? 0
        let parts = significand.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(parts[0]), fraction = parts.count > 1 ? String(parts[1]) : ""
        var digits = Array(whole + fraction)
        exponent += whole.count - 1
        while digits.first == "0", digits.count > 1 {
            digits.removeFirst()
            exponent -= 1
        }
        while digits.last == "0", digits.count > 1 { digits.removeLast() }
        let mantissa = digits.count > 1 ? "\(digits[0]).\(String(digits.dropFirst()))" : String(digits[0])
        return (value < 0 ? "-" : "") + mantissa + "E\(exponent)"
    }

    // MARK: String escapes

    /// Whether a string or member name holds a character whose escape differs between
    /// writers: a control character, U+2028 or U+2029.
    static func containsDivergentCharacter(_ value: JSONValue) -> Bool {
        func divergent(_ text: String) -> Bool {
            text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x2028 || $0.value == 0x2029 }
        }
        switch value {
        case .string(let text): return divergent(text)
        case .array(let elements): return elements.contains(where: containsDivergentCharacter)
        case .object(let object): return object.members.contains { divergent($0.key) || containsDivergentCharacter($0.value) }
        default: return false
        }
    }

    /// How strings are escaped.
    enum EscapeStyle: CaseIterable {
        /// Go's `encoding/json` (the canonical writer's own): `\n \r \t \b \f`, other controls
        /// `\u00xx`, U+2028/U+2029 escaped.
        case go
        /// Python `ensure_ascii=False` and Jackson: the same, with U+2028/U+2029 raw.
        case python
        /// LCP §5.3: every control as upper-case `\u00XX`, U+2028/U+2029 raw.
        case lcp

        /// Re-escapes the strings of canonical `bytes` (as the canonical writer made them).
        func rewrite(_ bytes: [UInt8]) -> [UInt8] {
            guard self != .go else { return bytes }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var index = 0, inString = false
            while index < bytes.count {
                let byte = bytes[index]
                guard inString, byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                    if byte == UInt8(ascii: "\"") { inString.toggle() }
                    out.append(byte)
                    index += 1
                    continue
                }
                let escape = bytes[index + 1]
                let shortControl: UInt8? = switch escape {
                case UInt8(ascii: "n"): 0x0A
                case UInt8(ascii: "r"): 0x0D
                case UInt8(ascii: "t"): 0x09
                case UInt8(ascii: "b"): 0x08
                case UInt8(ascii: "f"): 0x0C
                default: nil
                }
                if let control = shortControl {
                    if self == .lcp { out += Self.upperEscape(UInt32(control)) } else { out += bytes[index...index + 1] }
                    index += 2
                } else if escape == UInt8(ascii: "u"), index + 6 <= bytes.count,
                          let value = UInt32(String(decoding: bytes[index + 2..<index + 6], as: UTF8.self), radix: 16) {
                    if value == 0x2028 || value == 0x2029 {
                        out += Array(String(Unicode.Scalar(value)!).utf8)
                    } else if self == .lcp {
                        out += Self.upperEscape(value)
                    } else {
                        out += bytes[index..<index + 6]
                    }
                    index += 6
                } else {
                    // `\"` or `\\`: copied, and the escaped character cannot end the string.
                    out += bytes[index...index + 1]
                    index += 2
                }
            }
            return out
        }

        private static func upperEscape(_ value: UInt32) -> [UInt8] {
            let hex = String(value, radix: 16, uppercase: true)
            return Array(("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).utf8)
        }
    }
}
