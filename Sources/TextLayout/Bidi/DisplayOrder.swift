/// Interface strings (titles, labels, list rows) through the same bidirectional algorithm,
/// mirroring and Arabic shaping as the page text, for terminals that draw code points left to
/// right as they come: without it a Hebrew or Arabic title on the shelf, in the contents or on
/// the status line reads backwards.
public enum DisplayOrder {
    /// `text` as one paragraph whose direction is its first strong character's, in the order
    /// the terminal must receive it in `mode` (unchanged with ``BidiMode/terminal``, which
    /// reorders by itself). Truncate before, not after: the cut must fall at the logical end.
    /// `interfaceLine`: `text` is a line the interface composed (a prompt, a message, a popup's
    /// title) around words from outside: its paragraph is left to right whatever its first
    /// letter, so that only the embedded right-to-left words are turned.
    public static func visual(_ text: String, mode: BidiMode = .lectern, interfaceLine: Bool = false) -> String {
        String(characters(text, mode: mode, interfaceLine: interfaceLine).map(\.character))
    }

    /// ``visual(_:mode:)`` one character at a time, each with the offset (in `Character`s) of
    /// the logical character it comes from: a row that styles part of a string (a search
    /// match in its snippet) finds that part's cells after reordering.
    public static func characters(_ text: String, mode: BidiMode = .lectern, interfaceLine: Bool = false) -> [(character: Character, source: Int)] {
        // Isolates (FSI … PDI around a word from outside) steer the algorithm; the terminal
        // gets none of them.
        let logical = text.enumerated().filter { !isFormatting($0.element) }.map { (character: $0.element, source: $0.offset) }
        guard mode == .lectern, text.unicodeScalars.contains(where: isRightToLeftHint) else { return logical }
        let clusters = Clusters(text)
        let direction: BaseDirection = interfaceLine ? .leftToRight : .firstStrong(fallback: .leftToRight)
        let marks = interfaceLine ? quotationIsolates(clusters) : []
        guard let resolved = BidiResolver.levels(clusters, marks: marks, direction: direction) else { return logical }
        let paragraphLevel: Int8 = resolved.direction == .rightToLeft ? 1 : 0
        let order = VisualOrder.indices(0..<clusters.count, levels: resolved.levels, leads: clusters.leads, paragraphLevel: paragraphLevel)
        var result: [(character: Character, source: Int)] = []
        result.reserveCapacity(order.count)
        for index in order {
            var character = clusters[index]
            if isFormatting(character) { continue }
            if let shapes = resolved.shapes, shapes[index] != character.unicodeScalars.first?.value {
                // The lam of a lam-alef ligature is drawn by the alef's form: nothing of its own.
                guard shapes[index] != 0xFEFF, let scalar = Unicode.Scalar(shapes[index]) else { continue }
                var view = String.UnicodeScalarView()
                view.append(scalar)
                view.append(contentsOf: character.unicodeScalars.dropFirst())
                character = Character(String(view))
            }
            if resolved.levels[index] % 2 == 1 { character = BidiResolver.mirrored(character) }
            result.append((character, index))
        }
        return result
    }

    /// `text` as a word from outside inside an interface line: isolated (FSI … PDI), so that
    /// the line's numbers and punctuation do not join its right-to-left run ("“שלום” — 1 match"
    /// would show "“1 — ”םולש match"). The isolates never reach the terminal.
    public static func isolated(_ text: String) -> String {
        "\u{2068}" + text + "\u{2069}"
    }

    /// Isolates around what an interface line quotes ("Removed \"שלום\" from the library",
    /// “query” 3/9): a quoted title or query is a word from outside, and the figures after it
    /// must not join its right-to-left run. Straight quotes pair in order; curly ones open and close.
    static func quotationIsolates(_ clusters: Clusters) -> [(index: Int, scalar: UInt32)] {
        var marks: [(index: Int, scalar: UInt32)] = []
        var straightOpen = false, curlyDepth = 0
        for (index, character) in clusters.enumerated() {
            switch character {
            case "“":
                marks.append((index + 1, 0x2068))
                curlyDepth += 1
            case "”" where curlyDepth > 0:
                marks.append((index, 0x2069))
                curlyDepth -= 1
            case "\"":
                marks.append(straightOpen ? (index, 0x2069) : (index + 1, 0x2068))
                straightOpen.toggle()
            default: break
            }
        }
        return marks
    }

    /// The explicit bidi formatting characters: marks, embeddings, overrides and isolates.
    static func isFormatting(_ character: Character) -> Bool {
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Scalars that may make a string need reordering: right-to-left letters and the explicit
    /// right-to-left marks, embeddings, overrides and isolates. Anything else is left to right
    /// or neutral, and such a string is already in visual order.
    static func isRightToLeftHint(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        case 0x200F, 0x202B, 0x202E, 0x2067: true
        default: false
        }
    }
}
