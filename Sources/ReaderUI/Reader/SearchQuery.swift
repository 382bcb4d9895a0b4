import TextLayout

/// What is typed after `/`: the words, with optional prefixes that change how they match —
/// `re:` a regular expression, `w:` whole words, `c:` case matters, `a:` accents matter
/// (combinable: `w:c:Word`). Without a prefix, case and accents are ignored.
struct SearchQuery: Sendable, Hashable {
    var text: String
    var options: TextSearchOptions

    init(_ input: String) {
        var rest = Substring(input)
        var options = TextSearchOptions()
        while true {
            if rest.hasPrefix("re:") {
                options.regularExpression = true
                rest = rest.dropFirst(3)
            } else if rest.hasPrefix("w:") {
                options.wholeWord = true
                rest = rest.dropFirst(2)
            } else if rest.hasPrefix("c:") {
                options.caseSensitive = true
                rest = rest.dropFirst(2)
            } else if rest.hasPrefix("a:") {
                options.diacriticSensitive = true
                rest = rest.dropFirst(2)
            } else {
                break
            }
        }
        text = String(rest)
        self.options = options
    }

    /// The prompt's reminder of the prefixes.
    static let hint = "re: regex · w: whole word · c: case · a: accents"
}
