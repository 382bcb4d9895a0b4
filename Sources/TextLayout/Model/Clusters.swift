/// The grapheme clusters of a text, stored compactly: the first scalar of every cluster in
/// one contiguous array of the narrowest width that holds them (``PackedScalars``: one byte a
/// cluster for Latin text), and the few clusters that are more than one scalar (combining
/// sequences, emoji sequences, CR LF) on the side, by index.
///
/// A `[Character]` costs 16 bytes a cluster; a chapter is mostly single-scalar clusters, so
/// this keeps a long chapter's text at a sixteenth of that, and reads back the same clusters.
public struct Clusters: RandomAccessCollection, Sendable {
    /// The first scalar of each cluster.
    private(set) var leads = PackedScalars()
    /// The clusters that are not their lead scalar alone, by index.
    private var complex: [Int: Character] = [:]

    init() {}

    /// The clusters of `text`.
    init(_ text: some StringProtocol) {
        for character in text { append(character, lead: character.unicodeScalars.first!.value) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { leads.count }

    public subscript(position: Int) -> Character {
        if !complex.isEmpty, let character = complex[position] { return character }
        // Leads of single-scalar clusters are the scalar itself (see `append`).
        return Character(Unicode.Scalar(leads[position]).unsafelyUnwrapped)
    }

    /// Appends `character`, whose first scalar is `lead`.
    mutating func append(_ character: Character, lead: UInt32) {
        let scalars = character.unicodeScalars
        if scalars.count != 1 || scalars.first?.value != lead { complex[leads.count] = character }
        leads.append(lead)
    }

    /// Appends the clusters of `other`.
    mutating func append(contentsOf other: Clusters) {
        let base = leads.count
        for (index, character) in other.complex { complex[base + index] = character }
        leads.append(contentsOf: other.leads)
    }

    mutating func removeLast() {
        leads.removeLast()
        if !complex.isEmpty { complex[leads.count] = nil }
    }

    mutating func removeFirst() {
        leads.removeFirst()
        guard !complex.isEmpty else { return }
        var shifted: [Int: Character] = [:]
        for (index, character) in complex where index > 0 { shifted[index - 1] = character }
        complex = shifted
    }

    mutating func reserveCapacity(_ capacity: Int) { leads.reserveCapacity(capacity) }

    /// Stores the leads in the narrowest form, without the spare capacity left by appending
    /// (see ``PackedScalars/pack()``): once a text is finished.
    mutating func pack() { leads.pack() }

    /// Appends the clusters as UTF-8 to `bytes`.
    func appendUTF8(to bytes: inout [UInt8]) {
        for index in leads.indices {
            let lead = leads[index]
            if !complex.isEmpty, let character = complex[index] {
                for scalar in character.unicodeScalars { UTF8.encode(scalar) { bytes.append($0) } }
            } else if lead < 0x80 {
                bytes.append(UInt8(lead))
            } else if lead == 0xFEFF {
                // Not written: a zero-width no-break space is the lam of a lam-alef ligature
                // on a laid-out line (see `BidiMode`), and nothing a terminal should get.
                continue
            } else {
                UTF8.encode(Unicode.Scalar(lead).unsafelyUnwrapped) { bytes.append($0) }
            }
        }
    }
}
