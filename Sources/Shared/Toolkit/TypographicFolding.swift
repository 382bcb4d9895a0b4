/// Typographic equivalents a search treats as the plain character one types: curly
/// apostrophes and quotes, dashes and minus signs, and the Latin ligatures of the
/// Alphabetic Presentation Forms (`ﬁ`). Books set `Queequeg’s` and `ﬁsh`; a person types
/// `queequeg's` and `fish`. Applied to the text searched and to the query alike, whatever
/// case or accents say — these are not letters that differ, only ways of printing them.
public enum TypographicFolding {
    /// What `character` is searched as, or nil when it is searched as itself. Only single
    /// scalars fold (a quote with a combining mark stays what it is).
    public static func equivalent(of character: Character) -> String? {
        let scalars = character.unicodeScalars
        guard let scalar = scalars.first, scalar.value >= 0x2010, scalars.count == 1 else { return nil }
        switch scalar.value {
        case 0x2018, 0x2019, 0x201A, 0x201B, 0x2032, 0xFF07: return "'"
        case 0x201C, 0x201D, 0x201E, 0x201F, 0x2033, 0xFF02: return "\""
        case 0x2010...0x2015, 0x2212, 0xFE58, 0xFE63, 0xFF0D: return "-"
        case 0xFB00: return "ff"
        case 0xFB01: return "fi"
        case 0xFB02: return "fl"
        case 0xFB03: return "ffi"
        case 0xFB04: return "ffl"
        case 0xFB05, 0xFB06: return "st"
        default: return nil
        }
    }

    /// `text` with every typographic equivalent replaced (the library's index and queries).
    public static func folded(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value >= 0x2010 }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            if let equivalent = equivalent(of: character) { result += equivalent } else { result.append(character) }
        }
        return result
    }
}
