/// Scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer,
/// Myanmar): word-based search treats each of their characters as a word, and "whole word"
/// means nothing there.
public enum UnspacedScripts {
    /// Whether `character` belongs to a script written without spaces between words.
    public static func contains(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x0E00...0x0EFF,   // Thai, Lao
             0x1000...0x109F,   // Myanmar
             0x1780...0x17FF,   // Khmer
             0x3040...0x30FF,   // Hiragana, Katakana
             0x31F0...0x31FF,   // Katakana phonetic extensions
             0x3400...0x4DBF,   // CJK extension A
             0x4E00...0x9FFF,   // CJK unified ideographs
             0xF900...0xFAFF,   // CJK compatibility ideographs
             0xFF66...0xFF9F,   // half-width Katakana
             0x20000...0x3FFFF: // CJK extensions B and later
            return true
        default:
            return false
        }
    }
}
