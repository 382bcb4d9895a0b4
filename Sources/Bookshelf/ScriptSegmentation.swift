import Shared

/// Makes text in scripts written without spaces between words (Chinese, Japanese, Thai, Lao,
/// Khmer, Myanmar) searchable by a word-based full-text index.
///
/// SQLite's `unicode61` tokenizer splits at spaces and punctuation, so a Chinese sentence would
/// be one token and a word inside it could not be found. Every character of those scripts is
/// made a token of its own by putting a space between two such characters; a query for a word
/// of them becomes the phrase of its characters, which matches exactly where the characters
/// follow each other — a substring search, which is what a reader expects of these scripts.
/// Segmentation works on grapheme clusters (Swift `Character`s), so a Thai vowel sign stays
/// with its consonant.
public enum ScriptSegmentation {
    /// `text` with a space between every two adjacent characters of the unspaced scripts.
    public static func segmented(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var previousIsUnspaced = false
        for character in text {
            let isUnspaced = UnspacedScripts.contains(character)
            if isUnspaced, previousIsUnspaced { result.append(" ") }
            result.append(character)
            previousIsUnspaced = isUnspaced
        }
        return result
    }

    /// `segmented(text)` undone: the spaces between two characters of the unspaced scripts
    /// removed (a space the original had there is lost, which only matters for display).
    public static func unsegmented(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var characters = text.makeIterator()
        var previous: Character?
        var pendingSpace = false
        while let character = characters.next() {
            if character == " ", let last = previous, UnspacedScripts.contains(last), !pendingSpace {
                pendingSpace = true
                continue
            }
            if pendingSpace {
                if !UnspacedScripts.contains(character) { result.append(" ") }
                pendingSpace = false
            }
            result.append(character)
            previous = character
        }
        if pendingSpace { result.append(" ") }
        return result
    }
}
