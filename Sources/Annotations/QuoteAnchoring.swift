/// Where an annotation lands in a chapter's text.
public enum AnchoringResult: Sendable, Hashable {
    /// The stored range still holds the quote (or, without a quote, lies in the text).
    case placed(Range<Int>)
    /// The stored range no longer holds it; the quote was found elsewhere, by its text and
    /// context: the new range.
    case reanchored(Range<Int>)
    /// Neither the range nor the quote is in the text: the annotation is kept and listed as
    /// orphaned.
    case orphaned

    /// The range in the text, unless orphaned.
    public var range: Range<Int>? {
        switch self {
        case .placed(let range), .reanchored(let range): range
        case .orphaned: nil
        }
    }
}

/// A chapter's text prepared for anchoring: build it once and anchor many annotations in it.
///
/// White space is compared loosely — any run of it is one space — and soft hyphens and
/// zero-width spaces are ignored, so that a reflowed or re-encoded edition still matches.
public struct AnchoringText: Sendable {
    let characters: [Character]
    /// The text with white space collapsed and invisible characters dropped, as hash keys of
    /// its characters (comparing integers is many times faster than comparing `Character`s).
    let keys: [Int]
    /// For each key, the offset of its character (or of the first of its white space run).
    let offsets: [Int]
    /// For each key, the offset just after its character or run.
    let ends: [Int]

    public init(_ text: String) {
        characters = Array(text)
        var keys: [Int] = [], offsets: [Int] = [], ends: [Int] = []
        keys.reserveCapacity(characters.count)
        offsets.reserveCapacity(characters.count)
        ends.reserveCapacity(characters.count)
        for (offset, character) in characters.enumerated() {
            if Self.isIgnored(character) { continue }
            if character.isWhitespace {
                if keys.last == Self.spaceKey {
                    ends[ends.count - 1] = offset + 1
                    continue
                }
                keys.append(Self.spaceKey)
            } else {
                keys.append(character.hashValue)
            }
            offsets.append(offset)
            ends.append(offset + 1)
        }
        self.keys = keys
        self.offsets = offsets
        self.ends = ends
    }

    /// The number of characters (grapheme clusters) of the text.
    public var count: Int { characters.count }

    static let spaceKey = Character(" ").hashValue

    static func isIgnored(_ character: Character) -> Bool {
        character == "\u{00AD}" || character == "\u{200B}" || character == "\u{FEFF}"
    }

    /// The keys of a piece of text normalised as the chapter's are.
    static func keys(of text: String) -> [Int] {
        var keys: [Int] = []
        for character in text where !isIgnored(character) {
            if character.isWhitespace {
                if keys.last != spaceKey { keys.append(spaceKey) }
            } else {
                keys.append(character.hashValue)
            }
        }
        return keys
    }
}

/// Places an annotation in a chapter's text: by its stored range when that still holds the
/// quote, else by the quote with its prefix and suffix.
public enum QuoteAnchoring {
    /// How far each side of a quote its context is compared, in characters.
    static let contextLength = 64

    /// Places `target` in `chapterText`; offsets are characters (grapheme clusters), as
    /// ``AnnotationTarget/textRange`` counts them.
    public static func locate(_ target: AnnotationTarget, in chapterText: String) -> AnchoringResult {
        locate(target, in: AnchoringText(chapterText))
    }

    /// Places `target` in a prepared text.
    ///
    /// - The stored range, when it lies in the text and holds the quote (compared with white
    ///   space loosely), or when there is no quote: placed.
    /// - Otherwise every occurrence of the quote (white space loosely) is a candidate; the one
    ///   whose surroundings match the prefix and suffix longest wins, and among equals the
    ///   nearest to the stored range (or progression): reanchored.
    /// - No occurrence, or neither a quote nor a range in the text: orphaned.
    public static func locate(_ target: AnnotationTarget, in text: AnchoringText) -> AnchoringResult {
        let stored = target.textRange.flatMap { $0.upperBound <= text.count && $0.lowerBound >= 0 ? $0 : nil }
        guard let quote = target.quote, !AnchoringText.keys(of: quote.exact).allSatisfy({ $0 == AnchoringText.spaceKey }) else {
            return stored.map(AnchoringResult.placed) ?? .orphaned
        }
        if let stored, holds(text, stored, quote.exact) { return .placed(stored) }
        var exact = AnchoringText.keys(of: quote.exact)
        let leadingSpace = exact.first == AnchoringText.spaceKey
        let trailingSpace = exact.last == AnchoringText.spaceKey
        if leadingSpace { exact.removeFirst() }
        if trailingSpace { exact.removeLast() }
        let candidates = occurrences(of: exact, in: text)
        guard !candidates.isEmpty else { return .orphaned }
        var prefix = AnchoringText.keys(of: quote.prefix)
        if leadingSpace, prefix.last != AnchoringText.spaceKey { prefix.append(AnchoringText.spaceKey) }
        var suffix = AnchoringText.keys(of: quote.suffix)
        if trailingSpace, suffix.first != AnchoringText.spaceKey { suffix.insert(AnchoringText.spaceKey, at: 0) }
        let hint = stored?.lowerBound ?? target.textRange?.lowerBound ?? target.progression.map { Int($0 * Double(text.count)) }
        var best: (start: Int, score: Int, distance: Int)?
        for start in candidates {
            let score = matchingBefore(start, prefix, text) + matchingAfter(start + exact.count, suffix, text)
            let distance = hint.map { abs(text.offsets[start] - $0) } ?? start
            if let current = best, current.score > score || (current.score == score && current.distance <= distance) { continue }
            best = (start, score, distance)
        }
        guard let best else { return .orphaned }
        return .reanchored(text.offsets[best.start]..<text.ends[best.start + exact.count - 1])
    }

    /// Whether the characters in `range` are `exact`, white space compared loosely.
    private static func holds(_ text: AnchoringText, _ range: Range<Int>, _ exact: String) -> Bool {
        let held = String(text.characters[range])
        return held == exact || AnchoringText.keys(of: held) == AnchoringText.keys(of: exact)
    }

    /// The key offsets where `pattern` starts in the text (keys are 64-bit hashes of
    /// characters: two different characters sharing one is not a practical concern).
    private static func occurrences(of pattern: [Int], in text: AnchoringText) -> [Int] {
        guard let first = pattern.first, pattern.count <= text.keys.count else { return [] }
        var found: [Int] = []
        var start = 0
        let last = text.keys.count - pattern.count
        while start <= last {
            if text.keys[start] == first, text.keys[start..<start + pattern.count].elementsEqual(pattern) {
                found.append(start)
            }
            start += 1
        }
        return found
    }

    /// How many keys before `start` match the end of `prefix` (at most ``contextLength``).
    private static func matchingBefore(_ start: Int, _ prefix: [Int], _ text: AnchoringText) -> Int {
        var count = 0
        while count < min(prefix.count, contextLength), start - count - 1 >= 0,
              text.keys[start - count - 1] == prefix[prefix.count - count - 1] {
            count += 1
        }
        return count
    }

    /// How many keys from `end` match the start of `suffix` (at most ``contextLength``).
    private static func matchingAfter(_ end: Int, _ suffix: [Int], _ text: AnchoringText) -> Int {
        var count = 0
        while count < min(suffix.count, contextLength), end + count < text.keys.count, text.keys[end + count] == suffix[count] {
            count += 1
        }
        return count
    }
}
