import Shared

/// What a person types in a library search, made into an SQLite FTS5 query.
///
/// Every word must occur (in any order, case and accents ignored); `"two words"` must occur
/// together; a word ending in `*` matches every word it begins. Nothing typed is ever passed to
/// FTS5 as syntax: each term is written as a quoted string, so `AND`, `NEAR`, `:` or `^` in the
/// query are searched as text, never interpreted.
public struct FullTextQuery: Sendable, Hashable {
    /// One word or phrase to find.
    public struct Term: Sendable, Hashable {
        public var text: String
        public var isPrefix: Bool

        public init(text: String, isPrefix: Bool) {
            self.text = text
            self.isPrefix = isPrefix
        }
    }

    public let terms: [Term]

    /// Parses `text`; nil when it holds nothing searchable (no letter or digit).
    public init?(_ text: String) {
        var terms: [Term] = []
        var current = ""
        var inQuotes = false
        func finish() {
            var word = current
            current = ""
            var isPrefix = false
            if !inQuotes, word.hasSuffix("*") {
                word.removeLast()
                isPrefix = true
            }
            guard word.contains(where: { $0.isLetter || $0.isNumber }) else { return }
            terms.append(Term(text: word, isPrefix: isPrefix))
        }
        for character in text {
            if character == "\"" {
                finish()
                inQuotes.toggle()
            } else if character.isWhitespace, !inQuotes {
                finish()
            } else {
                current.append(character)
            }
        }
        finish()
        guard !terms.isEmpty else { return nil }
        self.terms = terms
    }

    /// The FTS5 MATCH expression: the terms' quoted strings, side by side (all must match).
    public var matchExpression: String {
        terms.map { term in
            // Folded as the index is (``TypographicFolding``): `ﬁsh` typed finds `fish`.
            let segmented = ScriptSegmentation.segmented(TypographicFolding.folded(term.text))
            let quoted = "\"" + segmented.replacing("\"", with: "\"\"") + "\""
            return term.isPrefix ? quoted + "*" : quoted
        }.joined(separator: " ")
    }
}
