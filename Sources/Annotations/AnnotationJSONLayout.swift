import Shared

extension JSONObject {
    /// Appends a member when `value` is not nil, without looking for one of the same key (the
    /// writers here never repeat a key, and looking costs much over 100,000 annotations).
    mutating func append(_ key: String, _ value: JSONValue?) {
        if let value { members.append(Member(key: key, value: value)) }
    }
}

/// The layout of the JSON exports: compact, with each element of the one long array (the
/// annotations) on a line of its own — small enough for 100,000 annotations to stay far under
/// the import limit, and diffable line by line.
enum AnnotationJSONLayout {
    private static let writer = JSONWriter(style: .compact)

    /// `envelope` with a last member `key` whose elements are `items` (already written), one
    /// a line.
    static func object(_ envelope: JSONObject, key: String, items: [[UInt8]]) -> [UInt8] {
        var out = writer.bytes(.object(envelope))
        out.removeLast() // the closing brace
        if !envelope.isEmpty { out.append(UInt8(ascii: ",")) }
        out += writer.bytes(.string(key))
        out.append(UInt8(ascii: ":"))
        out += array(items)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// An array of already written elements, one a line.
    static func array(_ items: [[UInt8]]) -> [UInt8] {
        guard !items.isEmpty else { return Array("[]".utf8) }
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(items.reduce(4) { $0 + $1.count + 2 })
        for (position, item) in items.enumerated() {
            out += position == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A]
            out += item
        }
        out += [0x0A, UInt8(ascii: "]")]
        return out
    }

    static func bytes(_ value: JSONValue) -> [UInt8] {
        writer.bytes(value)
    }
}

/// The members of a JSON object by key, compared as `String`s are (canonical equivalence, as
/// a dictionary's keys would be); the last of duplicate keys wins. The objects of an
/// annotation have about ten members: walking them costs less than hashing them into a
/// dictionary, which was a third of the time of reading a 2,000-annotation set.
struct JSONFields {
    private let members: [JSONObject.Member]

    init(_ value: JSONValue?) {
        members = value?.object?.members ?? []
    }

    subscript(key: String) -> JSONValue? {
        var index = members.count
        while index > 0 {
            index -= 1
            if members[index].key == key { return members[index].value }
        }
        return nil
    }

    var isObject: Bool { !members.isEmpty }
}
