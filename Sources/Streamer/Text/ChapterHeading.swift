import Shared

/// Recognises the lines of plain text that open a chapter: "CHAPTER I", "Chapter 12. The
/// Storm", "BOOK TWO", "PART III", "Letter 4", a Roman numeral alone ("XIV."), and the
/// front and back matter that stands alone on a line ("PROLOGUE", "Epilogue").
enum ChapterHeading {
    /// Whether the heading groups chapters ("BOOK", "PART", "VOLUME"): chapters after it are
    /// nested under it in the contents.
    enum Rank: Sendable, Equatable {
        case part
        case chapter
    }

    /// Longest line taken for a heading: a longer one is a sentence that starts with "Chapter".
    static let maxLength = 80

    private static let partWords: Set<String> = ["book", "part", "volume"]
    private static let chapterWords: Set<String> = ["chapter", "letter", "canto", "stave", "section"]
    private static let standaloneWords: Set<String> = [
        "prologue", "epilogue", "preface", "introduction", "foreword", "afterword", "conclusion", "postscript",
    ]
    private static let numberWords: Set<String> = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
        "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "thirty", "forty", "fifty",
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "last", "the",
    ]

    /// The rank of the heading `line` is, or nil when it is no heading.
    static func rank(of line: some StringProtocol) -> Rank? {
        let text = line.trimmed
        guard !text.isEmpty, text.count <= maxLength else { return nil }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        let first = words[0].lowercased().trimmingPunctuation
        if words.count == 1, standaloneWords.contains(first) { return .chapter }
        if words.count == 1 || (words.count <= 12 && isTitled(words[0])), isRomanNumeral(words[0].trimmingPunctuation) {
            return .chapter
        }
        guard words.count >= 2 else { return nil }
        let second = words[1].lowercased().trimmingPunctuation
        guard isNumber(second) else { return nil }
        // "Chapter 3 was the best": a heading keeps its title apart with punctuation or capitals.
        if words.count > 2, !words[1].hasSuffix("."), !words[1].hasSuffix(":"), !words[2].hasPrefix("-"),
           !words[2].hasPrefix("—"), !words[2].hasPrefix("–"), words[2].first?.isUppercase != true {
            return nil
        }
        if partWords.contains(first) { return .part }
        if chapterWords.contains(first) { return .chapter }
        return nil
    }

    /// Digits, a Roman numeral, or a number in words.
    private static func isNumber(_ word: String) -> Bool {
        if !word.isEmpty, word.allSatisfy({ $0.isASCII && $0.isNumber }) { return word.count <= 4 }
        if isRomanNumeral(word.uppercased()) { return true }
        return word.split(separator: "-").allSatisfy { numberWords.contains(String($0)) }
    }

    /// "I", "XIV", "MCM" — upper case, at most 8 letters, in the order numerals are written.
    static func isRomanNumeral(_ word: String) -> Bool {
        guard !word.isEmpty, word.count <= 8, word.allSatisfy({ "IVXLCDM".contains($0) }) else { return false }
        let values: [Character: Int] = ["I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000]
        let digits = word.compactMap { values[$0] }
        var total = 0
        for (index, value) in digits.enumerated() {
            let next = index + 1 < digits.count ? digits[index + 1] : 0
            total += value < next ? -value : value
        }
        return toRoman(total) == word
    }

    private static func toRoman(_ number: Int) -> String {
        guard number > 0, number < 4000 else { return "" }
        let table: [(Int, String)] = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                                      (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
        var rest = number, result = ""
        for (value, numeral) in table {
            while rest >= value { result += numeral; rest -= value }
        }
        return result
    }

    /// "IV." followed by a title, written as a heading ("IV. THE STORM", "IV. The Storm").
    private static func isTitled(_ word: Substring) -> Bool {
        word.hasSuffix(".")
    }
}

private extension StringProtocol {
    /// Without the punctuation that ends a heading's word ("I." "3:" "TWO,").
    var trimmingPunctuation: String {
        var text = Substring(self)
        while let last = text.last, ".:,;—–-".contains(last) { text.removeLast() }
        return String(text)
    }
}
