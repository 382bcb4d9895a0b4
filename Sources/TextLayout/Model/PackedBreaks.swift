/// What may follow a cluster.
enum LineBreak: UInt8, Sendable {
    /// No break after this cluster.
    case none
    /// A break is allowed after this cluster (after spaces, hyphens, dashes, between ideographs).
    case allowed
    /// A break is allowed after this cluster, and shows a hyphen when taken (soft hyphen).
    case softHyphen
    /// A line must end after this cluster (a `"\n"`: `<br>` or a line of preformatted text).
    case mandatory
}

/// The ``LineBreak`` after every cluster of a text, two bits each (a quarter of a byte a
/// cluster instead of a byte: a long chapter keeps one per character).
struct PackedBreaks: RandomAccessCollection, Sendable, CustomStringConvertible {
    /// Four breaks a byte, the first in the low bits.
    private var bits: [UInt8] = []
    private(set) var count = 0

    init() {}

    init(_ breaks: [LineBreak]) {
        bits.reserveCapacity((breaks.count + 3) / 4)
        for kind in breaks { append(kind) }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> LineBreak {
        precondition(position >= 0 && position < count, "break index out of range")
        let raw = (bits[position >> 2] >> UInt8((position & 3) * 2)) & 3
        // Every 2-bit value is a case of LineBreak.
        return LineBreak(rawValue: raw).unsafelyUnwrapped
    }

    var description: String { Array(self).description }

    mutating func append(_ kind: LineBreak) {
        if count & 3 == 0 { bits.append(0) }
        bits[count >> 2] |= kind.rawValue << UInt8((count & 3) * 2)
        count += 1
    }

    mutating func append(contentsOf other: PackedBreaks) {
        for kind in other { append(kind) }
    }
}
