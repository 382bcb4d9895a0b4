import Shared

/// Folding for search: what two texts must share to match when case, accents or both are
/// ignored. One character folds to a short string (`ẞ` to `ß`, `İ` to `i`), never across
/// characters, so a match in folded text maps back to whole characters of the original.
/// Typographic equivalents (``TypographicFolding``: `’` `—` `ﬁ`) fold in every mode.
public enum TextFolding {
    /// `character` folded: lower case unless `keepCase`, diacritics removed unless
    /// `keepDiacritics` (Latin and Greek letters through ``diacriticLetters``, combining marks
    /// of Latin, Greek, Cyrillic, Hebrew and Arabic dropped); other scripts' marks (Thai vowel
    /// signs, Devanagari matras) are letters of their words and stay.
    public static func fold(_ character: Character, keepCase: Bool = false, keepDiacritics: Bool = false) -> String {
        if let ascii = character.asciiValue {
            let folded = !keepCase && ascii >= 65 && ascii <= 90 ? ascii + 32 : ascii
            return String(Character(Unicode.Scalar(folded)))
        }
        // A ligature folds to its letters (`ﬁ` to `fi`): a match covers the whole ligature.
        if let equivalent = TypographicFolding.equivalent(of: character) { return equivalent }
        let cased = keepCase ? String(character) : character.lowercased()
        guard !keepDiacritics || !keepCase else { return cased }
        var scalars = String.UnicodeScalarView()
        for scalar in cased.unicodeScalars {
            if keepDiacritics {
                scalars.append(scalar)
            } else if isDroppedMark(scalar.value) {
                continue
            } else if let base = base(of: scalar.value) {
                // The base keeps the case of the letter when case matters.
                let baseScalar = Unicode.Scalar(base)!
                scalars.append(contentsOf: keepCase && scalar.properties.isUppercase ? String(baseScalar).uppercased().unicodeScalars
                                                                                     : String(baseScalar).unicodeScalars)
            } else if !keepCase, scalar == "ς" {
                scalars.append("σ")
            } else {
                scalars.append(scalar)
            }
        }
        // A lone combining mark is searched as itself.
        return scalars.isEmpty ? cased : String(scalars)
    }

    /// `text` folded character by character.
    public static func fold(_ text: some StringProtocol, keepCase: Bool = false, keepDiacritics: Bool = false) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text { result += fold(character, keepCase: keepCase, keepDiacritics: keepDiacritics) }
        return result
    }

    /// Combining marks that are accents: Combining Diacritical Marks (and their supplements
    /// and extensions), Hebrew points and Arabic harakat.
    static func isDroppedMark(_ value: UInt32) -> Bool {
        switch value {
        case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F,
             0x0591...0x05BD, 0x05BF, 0x05C1...0x05C2, 0x05C4...0x05C5, 0x05C7,
             0x064B...0x065F, 0x0670:
            return true
        default:
            return false
        }
    }

    /// The base letter of a precomposed letter with diacritics (``diacriticLetters``).
    static func base(of value: UInt32) -> UInt32? {
        guard value >= 0xC0 else { return nil }
        var low = 0, high = diacriticLetters.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let candidate = diacriticLetters[middle]
            if candidate == value { return diacriticBases[middle] }
            if candidate < value { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }
}
