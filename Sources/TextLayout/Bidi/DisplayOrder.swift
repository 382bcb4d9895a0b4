/// Interface strings (titles, labels, list rows) through the same bidirectional algorithm,
/// mirroring and Arabic shaping as the page text, for terminals that draw code points left to
/// right as they come: without it a Hebrew or Arabic title on the shelf, in the contents or on
/// the status line reads backwards.
public enum DisplayOrder {
    /// `text` as one paragraph whose direction is its first strong character's, in the order
    /// the terminal must receive it in `mode` (unchanged with ``BidiMode/terminal``, which
    /// reorders by itself). Truncate before, not after: the cut must fall at the logical end.
    public static func visual(_ text: String, mode: BidiMode = .lectern) -> String {
        guard mode == .lectern, text.unicodeScalars.contains(where: isRightToLeftHint) else { return text }
        let clusters = Clusters(text)
        guard let resolved = BidiResolver.levels(clusters, marks: [], direction: .firstStrong(fallback: .leftToRight)) else { return text }
        let paragraphLevel: Int8 = resolved.direction == .rightToLeft ? 1 : 0
        let order = VisualOrder.indices(0..<clusters.count, levels: resolved.levels, leads: clusters.leads, paragraphLevel: paragraphLevel)
        var result = ""
        for index in order {
            var character = clusters[index]
            if let shapes = resolved.shapes, shapes[index] != character.unicodeScalars.first?.value {
                // The lam of a lam-alef ligature is drawn by the alef's form: nothing of its own.
                guard shapes[index] != 0xFEFF, let scalar = Unicode.Scalar(shapes[index]) else { continue }
                var view = String.UnicodeScalarView()
                view.append(scalar)
                view.append(contentsOf: character.unicodeScalars.dropFirst())
                character = Character(String(view))
            }
            if resolved.levels[index] % 2 == 1 { character = BidiResolver.mirrored(character) }
            result.append(character)
        }
        return result
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
