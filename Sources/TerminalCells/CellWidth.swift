/// How many terminal cells text occupies, computed from Lectern's own Unicode table
/// (``CellWidthTable.swift``, Unicode 15), never from the terminal's `wcwidth`.
///
/// Widths are measured per grapheme cluster (a Swift `Character`), which the layout never
/// splits:
/// - East Asian Wide and Fullwidth characters, and characters with emoji presentation, take 2;
/// - combining marks (Mn, Me), format characters (Cf, including ZWJ and the variation
///   selectors) and controls (Cc) take 0 — the layout strips controls;
/// - a cluster is the sum of its scalars, except that an emoji modifier (skin tone) adds
///   nothing, a cluster with U+FE0F (emoji presentation) or an emoji ZWJ sequence takes 2, and
///   a regional-indicator pair (a flag) takes 2;
/// - everything else, including East Asian Ambiguous characters, takes 1.
public enum CellWidth {
    /// The width of one scalar taken alone.
    @inlinable
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value >= 0x20, value < 0x7F { return 1 }
        return Int(tableWidth(value))
    }

    /// The width of a grapheme cluster.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        var iterator = scalars.makeIterator()
        guard let first = iterator.next() else { return 0 }
        guard let second = iterator.next() else { return of(first) }
        var sum = of(first)
        var emojiPresentation = false, joiner = false, regionalIndicators = first.isRegionalIndicator ? 1 : 0
        var next: Unicode.Scalar? = second
        while let scalar = next {
            switch scalar.value {
            case 0xFE0F: emojiPresentation = true
            case 0x200D: joiner = true
            case 0x1F3FB...0x1F3FF: break
            case 0x1F1E6...0x1F1FF: regionalIndicators += 1
            default: sum += of(scalar)
            }
            next = iterator.next()
        }
        if regionalIndicators > 0 { return 2 }
        if emojiPresentation { return 2 }
        if joiner, of(first) == 2 || (first.value >= 0x2000 && first.properties.isEmoji) { return 2 }
        return sum
    }

    /// The width of a string: the sum of its clusters.
    public static func of<S: StringProtocol>(_ text: S) -> Int {
        var total = 0
        for character in text {
            if let ascii = character.asciiValue {
                total += ascii >= 0x20 && ascii < 0x7F ? 1 : 0
            } else {
                total += of(character)
            }
        }
        return total
    }

    /// ``of(_:)-(Unicode.Scalar)`` of every scalar of the Basic Multilingual Plane, indexed by
    /// scalar value (65,536 bytes; 1 for the surrogates, which are no scalars). Filled from
    /// the table's ranges rather than by a search per scalar: it is made before a first page.
    public static func basicPlaneWidths() -> [UInt8] {
        var widths = [UInt8](repeating: 1, count: 0x10000)
        for index in cellWidthRangeStarts.indices where cellWidthRangeStarts[index] < 0x10000 {
            let end = min(cellWidthRangeEnds[index], 0xFFFF)
            for value in Int(cellWidthRangeStarts[index])...Int(end) { widths[value] = cellWidthRangeValues[index] }
        }
        for value in 0x20..<0x7F { widths[value] = 1 }
        for value in 0xD800...0xDFFF { widths[value] = 1 }
        return widths
    }

    @usableFromInline
    static func tableWidth(_ value: UInt32) -> UInt8 {
        var low = 0, high = cellWidthRangeStarts.count - 1
        if value < cellWidthRangeStarts[0] { return 1 }
        while low < high {
            let middle = (low + high + 1) / 2
            if cellWidthRangeStarts[middle] <= value { low = middle } else { high = middle - 1 }
        }
        return value <= cellWidthRangeEnds[low] ? cellWidthRangeValues[low] : 1
    }
}

extension Unicode.Scalar {
    var isRegionalIndicator: Bool { (0x1F1E6...0x1F1FF).contains(value) }
}
