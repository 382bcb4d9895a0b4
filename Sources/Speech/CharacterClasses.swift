/// The punctuation sentence splitting looks at.
enum CharacterClasses {
    /// Stops followed by a space in the scripts that space words (Latin, Greek, Cyrillic,
    /// Arabic, Devanagari…).
    static let spacedTerminators: Set<Character> = [
        ".", "!", "?", "…", "‽", "⁇", "⁈", "⁉", "‼", "\u{037E}", "؟", "\u{06D4}", "।", "॥", "։", "።",
    ]
    /// Stops of the scripts written without spaces (Chinese, Japanese): a sentence ends right after.
    static let unspacedTerminators: Set<Character> = ["。", "！", "？", "｡", "．"]

    /// Quotes and closing brackets that may follow a stop.
    private static let closers: Set<Character> = [
        "\"", "'", "”", "’", "»", "›", "“", "‘", "«", "‹", ")", "]", "}", "」", "』", "）", "］", "】", "〕", "〉", "》",
        "〗", "〙", "〛", "＂", "＇", "｣",
    ]
    /// Closing quotes French sets after a space.
    static let spacedClosers: Set<Character> = ["»", "›"]

    /// Quotes, opening brackets and dialogue dashes that may open a sentence.
    private static let openers: Set<Character> = [
        "\"", "'", "“", "‘", "„", "‚", "«", "‹", "»", "›", "(", "[", "{", "「", "『", "（", "［", "【", "〔", "〈", "《",
        "〖", "〘", "〚", "＂", "＇", "｢", "¿", "¡", "—", "–",
    ]

    static func terminates(_ character: Character) -> Bool {
        spacedTerminators.contains(character) || unspacedTerminators.contains(character)
    }
    static func closes(_ character: Character) -> Bool { closers.contains(character) }
    static func opens(_ character: Character) -> Bool { openers.contains(character) }
}
