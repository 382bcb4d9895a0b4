import CLecternFriBidi

/// The Unicode Bidirectional Algorithm, through GNU FriBidi, at the level of grapheme clusters.
///
/// FriBidi resolves the embedding level of every scalar of a paragraph (explicit embeddings
/// and isolates, weak and neutral types, bracket pairs); a cluster takes the level of its
/// first scalar. Reordering a line (rules L1–L2) and mirroring (L4) are done per line by
/// ``VisualOrder``, on clusters, so a cluster is never split or reordered inside.
/// Arabic shaping is left to the terminal: only the order changes.
enum BidiResolver {
    /// The levels of `characters` (with bidi formatting `marks` inserted before the given
    /// cluster indices) and the paragraph's resolved direction; nil if FriBidi fails.
    static func levels(_ characters: Clusters, marks: [(index: Int, scalar: UInt32)], direction: BaseDirection)
        -> (levels: [Int8], direction: TextDirection)? {
        var scalars: [UInt32] = []
        scalars.reserveCapacity(characters.count + marks.count)
        var firstScalar = [Int](repeating: 0, count: characters.count)
        var markIndex = 0
        for (index, character) in characters.enumerated() {
            while markIndex < marks.count, marks[markIndex].index <= index {
                scalars.append(marks[markIndex].scalar)
                markIndex += 1
            }
            firstScalar[index] = scalars.count
            // A line break inside a paragraph (`<br>`) is a line separator, not a new paragraph.
            if character.unicodeScalars.first == "\n" {
                scalars.append(0x2028)
                continue
            }
            for scalar in character.unicodeScalars { scalars.append(scalar.value) }
        }
        while markIndex < marks.count {
            scalars.append(marks[markIndex].scalar)
            markIndex += 1
        }
        guard scalars.count < Int(Int32.max) else { return nil }
        let code: Int32 = switch direction {
        case .leftToRight: 0
        case .rightToLeft: 1
        case .firstStrong(let fallback): fallback == .rightToLeft ? 3 : 2
        }
        var scalarLevels = [Int8](repeating: 0, count: scalars.count)
        let resolved = scalars.withUnsafeBufferPointer { text in
            scalarLevels.withUnsafeMutableBufferPointer { levels in
                lectern_fribidi_levels(text.baseAddress, Int32(text.count), code, levels.baseAddress)
            }
        }
        guard resolved >= 0 else { return nil }
        return (firstScalar.map { scalarLevels[$0] }, resolved == 1 ? .rightToLeft : .leftToRight)
    }

    /// The mirrored glyph of a cluster shown right-to-left (`(` ↔ `)`), when it has one.
    static func mirrored(_ character: Character) -> Character {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return character }
        let mirror = lectern_fribidi_mirror(first.value)
        guard mirror != first.value, let scalar = Unicode.Scalar(mirror) else { return character }
        var view = String.UnicodeScalarView()
        view.append(scalar)
        view.append(contentsOf: scalars.dropFirst())
        return Character(String(view))
    }
}
