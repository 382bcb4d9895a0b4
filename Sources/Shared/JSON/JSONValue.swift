import FoundationEssentials

/// A JSON value that keeps what the typed decoders lose: member order, duplicate members and
/// the literal text of numbers. Manifests are parsed from it tolerantly, and LCP and signed
/// audiobook manifests are canonicalised from it byte for byte.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number, as its literal text in the source (e.g. `1.50`, `-0`, `1e3`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The string, when this is a string.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number as a `Double`, when this is a number (or a string holding one, a common quirk)
    /// that a `Double` can hold: `1e999` overflows and strings such as `nan` or `inf` are no
    /// JSON numbers, so they are nil.
    public var double: Double? {
        let value: Double? = switch self {
        case .number(let literal): Double(literal)
        case .string(let text): Double(text.trimmed)
        default: nil
        }
        return value.flatMap { $0.isFinite ? $0 : nil }
    }

    /// The number as an `Int`, when it is integral (also accepted from a string holding one).
    public var int: Int? {
        switch self {
        case .number(let literal):
            if let value = Int(literal) { return value }
            if let value = Double(literal), value.rounded() == value, abs(value) < 9.0e15 { return Int(value) }
            return nil
        case .string(let text): return Int(text.trimmed)
        default: return nil
        }
    }

    /// The Boolean, when this is one.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when this is an object.
    public var object: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The member with this key, when this is an object.
    public subscript(key: String) -> JSONValue? {
        object?[key]
    }

    /// A number value from an integer.
    public static func int(_ value: Int) -> JSONValue { .number(String(value)) }

    /// A number value from a double, written without a trailing `.0` when integral; `null` for
    /// infinities and NaN, which JSON cannot express (Swift would write `inf` and `nan`).
    public static func double(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        if value.rounded() == value, abs(value) < 1e15 { return .number(String(Int(value))) }
        return .number(String(value))
    }

    /// Strings, from a value that is either one string or an array of them (a common
    /// RWPM shape: `rel`, `language`, `conformsTo`…).
    public var strings: [String] {
        switch self {
        case .string(let value): [value]
        case .array(let values): values.compactMap(\.string)
        default: []
        }
    }
}

/// The members of a JSON object, in source order.
public struct JSONObject: Sendable, Hashable {
    /// One `"key": value` pair.
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    public var members: [Member]

    public init(_ members: [Member] = []) {
        self.members = members
    }

    public init(_ pairs: KeyValuePairs<String, JSONValue>) {
        members = pairs.map { Member(key: $0.key, value: $0.value) }
    }

    /// The keys, in order.
    public var keys: [String] { members.map(\.key) }

    public var isEmpty: Bool { members.isEmpty }

    /// The value of the last member with this key (the usual reading of duplicate keys), or nil.
    /// Setting replaces the first member with that key and removes the other duplicates (so
    /// the new value is the one read back), or appends one; setting nil removes them all.
    /// Keys are compared by their Unicode scalars: canonically equivalent spellings such as a
    /// precomposed and a decomposed "é" are different JSON member names.
    public subscript(key: String) -> JSONValue? {
        get { members.last { Self.same($0.key, key) }?.value }
        set {
            guard let newValue else {
                members.removeAll { Self.same($0.key, key) }
                return
            }
            guard let first = members.firstIndex(where: { Self.same($0.key, key) }) else {
                members.append(Member(key: key, value: newValue))
                return
            }
            members[first].value = newValue
            var index = members.count - 1
            while index > first {
                if Self.same(members[index].key, key) { members.remove(at: index) }
                index -= 1
            }
        }
    }

    private static func same(_ a: String, _ b: String) -> Bool {
        a.unicodeScalars.elementsEqual(b.unicodeScalars)
    }

    /// Sets `key` only when `value` is not nil; a convenience for serialisers.
    public mutating func set(_ key: String, _ value: JSONValue?) {
        if let value { self[key] = value }
    }
}
