/// Pairs the characters of a chapter's ``TextDocument`` with those of its crengine DOM text.
///
/// Both are the same text seen by two converters: Lectern's adds generated text (list markers
/// and `[image: …]`, left out of the pairing by their role; quotation marks of `<q>`, ruby
/// parentheses) and leaves some out (footnotes
/// moved to notes, hidden elements, soft hyphens, format characters); white space differs at
/// block edges. So only *key* characters are paired — neither white space, nor controls,
/// format characters or combining marks — in order: equal keys advance both sides; at a
/// difference, the side that skips fewer keys to agree again on the next eight is skipped.
///
/// Costs one pass over both texts plus, at each difference, a search that stops at the
/// nearest agreement: proportional to the chapter for ordinary books.
struct KOReaderXPointerAlignment: Sendable {
    /// For each Lectern offset, the DOM scalar of the first paired key at or after it (-1:
    /// none after).
    let nextSource: [Int32]
    /// For each DOM scalar, the Lectern offset of the first paired key at or after it (-1:
    /// none after).
    let nextOffset: [Int32]

    /// How many keys must agree after a difference for the texts to be in step again.
    static let agreement = 8

    init(document: TextDocument, dom: KOReaderDOM) {
        let length = document.length
        var offsets: [Int32] = [], leads: [UInt32] = []
        for (start, text) in document.texts {
            let clusterLeads = text.characters.leads
            var index = 0
            while index < text.count {
                let runEnd = text.styles.runEnd(containing: index)
                // Generated text is left out: an image's `[image: alt]` would otherwise pair
                // with the same words of a caption after it.
                if !Self.generatedRoles.contains(text.styles[index].role) {
                    for cluster in index..<runEnd {
                        let lead = clusterLeads[cluster]
                        if Self.isKey(lead) {
                            offsets.append(Int32(start + cluster))
                            leads.append(lead)
                        }
                    }
                }
                index = runEnd
            }
        }
        var positions: [Int32] = [], scalars: [UInt32] = []
        for (position, scalar) in dom.scalars.enumerated() where Self.isKey(scalar.value) {
            positions.append(Int32(position))
            scalars.append(scalar.value)
        }
        let pairs = Self.pairs(leads, scalars)
        var nextSource = [Int32](repeating: -1, count: length + 1)
        var nextOffset = [Int32](repeating: -1, count: dom.scalars.count + 1)
        for (left, right) in pairs {
            nextSource[Int(offsets[left])] = positions[right]
            nextOffset[Int(positions[right])] = offsets[left]
        }
        var following: Int32 = -1
        for offset in stride(from: length, through: 0, by: -1) {
            if nextSource[offset] >= 0 { following = nextSource[offset] } else { nextSource[offset] = following }
        }
        following = -1
        for position in stride(from: dom.scalars.count, through: 0, by: -1) {
            if nextOffset[position] >= 0 { following = nextOffset[position] } else { nextOffset[position] = following }
        }
        self.nextSource = nextSource
        self.nextOffset = nextOffset
    }

    /// The roles of text Lectern makes up, which no DOM text node holds.
    static let generatedRoles: Set<TextStyle.Role> = [.image, .listMarker, .decoration]

    /// Whether a character takes part in the pairing: visible, and the first of its cluster.
    static func isKey(_ value: UInt32) -> Bool {
        // Most text is ASCII: printable and not a space is a key, without a table look-up.
        if value < 0x80 { return value > 0x20 && value != 0x7F }
        guard let scalar = Unicode.Scalar(value), !scalar.properties.isWhitespace else { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .nonspacingMark, .spacingMark, .enclosingMark, .surrogate: return false
        default: return true
        }
    }

    /// The index pairs (left, right) of equal keys, in order.
    static func pairs(_ left: [UInt32], _ right: [UInt32]) -> [(Int, Int)] {
        var result: [(Int, Int)] = []
        result.reserveCapacity(min(left.count, right.count))
        var i = 0, j = 0
        // Searches are bounded in total, so that two texts that hardly agree (a chapter the
        // two parsers read very differently) cost linear time, not quadratic.
        var budget = 32 * (left.count + right.count) + 100_000
        while i < left.count, j < right.count {
            if left[i] == right[j] {
                result.append((i, j))
                i += 1
                j += 1
                continue
            }
            // A mark of punctuation on one side only (the parentheses Lectern puts around
            // ruby, the quotation marks of `<q>`): skipped without a search, as differences
            // this close together never leave eight keys in agreement.
            if i + 1 < left.count, left[i + 1] == right[j], isPunctuation(left[i]) {
                i += 1
                continue
            }
            if j + 1 < right.count, right[j + 1] == left[i], isPunctuation(right[j]) {
                j += 1
                continue
            }
            let skip = resynchronisation(left, i, right, j, within: budget > 0 ? Int.max : 64)
            budget -= skip.distance
            switch skip {
            case .skipLeft(let count): i += count
            case .skipRight(let count): j += count
            case .skipBoth(let count):
                i += count
                j += count
            case .none:
                i += 1
                j += 1
            }
        }
        return result
    }

    private static func isPunctuation(_ value: UInt32) -> Bool {
        guard let scalar = Unicode.Scalar(value) else { return false }
        switch scalar.properties.generalCategory {
        case .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation, .otherPunctuation: return true
        default: return false
        }
    }

    enum Skip {
        case skipLeft(Int), skipRight(Int), skipBoth(Int), none(searched: Int)

        /// How far the search went.
        var distance: Int {
            switch self {
            case .skipLeft(let distance), .skipRight(let distance), .skipBoth(let distance), .none(let distance): distance
            }
        }
    }

    /// The nearest skip after which `agreement` keys (or all that are left) agree: searched at
    /// growing distances on both sides at once, so that a short difference costs little
    /// whatever the length of the text.
    static func resynchronisation(_ left: [UInt32], _ i: Int, _ right: [UInt32], _ j: Int, within bound: Int) -> Skip {
        let limit = min(bound, max(left.count - i, right.count - j))
        var distance = 1
        while distance < limit {
            if i + distance < left.count, agrees(left, i + distance, right, j) { return .skipLeft(distance) }
            if j + distance < right.count, agrees(left, i, right, j + distance) { return .skipRight(distance) }
            // A difference of the same length on both sides (text replaced, as in MathML).
            if i + distance < left.count, j + distance < right.count, agrees(left, i + distance, right, j + distance) {
                return .skipBoth(distance)
            }
            distance += 1
        }
        return .none(searched: limit)
    }

    private static func agrees(_ left: [UInt32], _ i: Int, _ right: [UInt32], _ j: Int) -> Bool {
        let count = min(agreement, left.count - i, right.count - j)
        guard count > 0 else { return false }
        for k in 0..<count where left[i + k] != right[j + k] { return false }
        return true
    }
}
