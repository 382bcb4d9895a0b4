import CLecternFriBidi

/// The Unicode Bidirectional Algorithm, through GNU FriBidi, at the level of grapheme clusters.
///
/// FriBidi resolves the embedding level of every scalar of a paragraph (explicit embeddings
/// and isolates, weak and neutral types, bracket pairs); a cluster takes the level of its
/// first scalar. Reordering a line (rules L1–L2) and mirroring (L4) are done per line by
/// ``VisualOrder``, on clusters, so a cluster is never split or reordered inside.
/// Arabic letters are also shaped here (joining and lam-alef ligatures, see ``shapes``), for
/// terminals that draw each code point as it comes; the view uses them only when Lectern
/// does the visual ordering (``BidiMode/lectern``).
enum BidiResolver {
    /// The levels of `characters` (with bidi formatting `marks` inserted before the given
    /// cluster indices) and the paragraph's resolved direction; nil if FriBidi fails.
    /// `shapes`: the presentation form of each cluster's first scalar, when the paragraph has
    /// Arabic letters (nil otherwise; see ``InlineText/shapes``).
    static func levels(_ characters: Clusters, marks: [(index: Int, scalar: UInt32)], direction: BaseDirection)
        -> (levels: [Int8], direction: TextDirection, shapes: [UInt32]?)? {
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
        let shapes = shapes(scalars, levels: scalarLevels).map { shaped in firstScalar.map { shaped[$0] } }
        return (firstScalar.map { scalarLevels[$0] }, resolved == 1 ? .rightToLeft : .leftToRight, shapes)
    }

    /// Each scalar's Arabic presentation form (FriBidi joining and shaping, lam-alef
    /// ligatures included); nil when there is no Arabic letter to shape or FriBidi fails.
    static func shapes(_ scalars: [UInt32], levels: [Int8]) -> [UInt32]? {
        guard scalars.contains(where: isArabicJoining) else { return nil }
        var shaped = [UInt32](repeating: 0, count: scalars.count)
        let status = scalars.withUnsafeBufferPointer { text in
            levels.withUnsafeBufferPointer { levels in
                shaped.withUnsafeMutableBufferPointer { shaped in
                    lectern_fribidi_shape(text.baseAddress, Int32(text.count), levels.baseAddress, shaped.baseAddress)
                }
            }
        }
        return status == 0 ? shaped : nil
    }

    /// Letters of the Arabic blocks that have presentation forms to join with.
    static func isArabicJoining(_ scalar: UInt32) -> Bool {
        (0x0620...0x06D5).contains(scalar) || (0x0750...0x077F).contains(scalar) || (0x08A0...0x08FF).contains(scalar)
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
