import Shared
#if canImport(Glibc)
import Glibc
#endif

/// How a search matches.
public struct TextSearchOptions: Sendable, Hashable {
    /// Upper and lower case differ.
    public var caseSensitive = false
    /// Accented and plain letters differ.
    public var diacriticSensitive = false
    /// Matches start and end at word boundaries (in scripts written with spaces).
    public var wholeWord = false
    /// The query is a regular expression (Swift `Regex` syntax, close to PCRE).
    public var regularExpression = false

    public init(caseSensitive: Bool = false, diacriticSensitive: Bool = false, wholeWord: Bool = false,
                regularExpression: Bool = false) {
        self.caseSensitive = caseSensitive
        self.diacriticSensitive = diacriticSensitive
        self.wholeWord = wholeWord
        self.regularExpression = regularExpression
    }
}

/// Why a search could not run.
public enum TextSearchError: Error, Sendable, Hashable {
    /// The regular expression does not parse.
    case invalidRegularExpression(String)

    public var userMessage: String {
        switch self {
        case .invalidRegularExpression(let pattern): "not a valid regular expression: \(pattern)"
        }
    }
}

/// The text of one chapter (``TextDocument/plainText``: offsets are the reader's positions)
/// prepared for search: its folded form (case and accents removed, ``TextFolding``) as UTF-8,
/// searched with `memmem`, and a checkpoint every 64 characters to turn a byte of the folded
/// text back into a position. About twice the text's size in memory.
public struct SearchableText: Sendable {
    public let text: String
    /// The character count of ``text``.
    public let length: Int
    private let folded: [UInt8]
    /// The folded text as UTF-8 (what a plain search scans), for storing beside the text.
    public var foldedBytes: [UInt8] { folded }
    /// For characters 0, 64, 128…: where they start in ``text`` and in ``folded``.
    private let checkpoints: [(index: String.Index, folded: Int)]
    static let checkpointInterval = 64

    public init(_ text: String) {
        self.text = text
        var folded: [UInt8] = []
        folded.reserveCapacity(text.utf8.count)
        var checkpoints: [(String.Index, Int)] = []
        var count = 0
        var index = text.startIndex
        while index < text.endIndex {
            if count % Self.checkpointInterval == 0 { checkpoints.append((index, folded.count)) }
            let character = text[index]
            folded.append(contentsOf: TextFolding.fold(character).utf8)
            count += 1
            index = text.index(after: index)
        }
        self.folded = folded
        self.checkpoints = checkpoints
        length = count
    }

    /// The ranges (character offsets) where `query` occurs, in order, at most `limit`.
    public func ranges(of query: String, options: TextSearchOptions = TextSearchOptions(),
                       limit: Int = .max) throws(TextSearchError) -> [Range<Int>] {
        if options.regularExpression { return try regexRanges(of: query, options: options, limit: limit) }
        let needle = Array(TextFolding.fold(query).utf8)
        guard !needle.isEmpty, folded.count >= needle.count else { return [] }
        let exact = options.caseSensitive || options.diacriticSensitive
        let wanted = exact ? TextFolding.fold(query, keepCase: options.caseSensitive, keepDiacritics: options.diacriticSensitive) : ""
        var result: [Range<Int>] = []
        folded.withUnsafeBytes { haystack in
            needle.withUnsafeBytes { pattern in
                var from = 0
                while from + pattern.count <= haystack.count, result.count < limit {
                    guard let byte = Self.find(pattern, in: haystack, from: from) else { break }
                    from = byte + 1
                    // Only matches that start and end on characters of the original count.
                    guard let range = characterRange(foldedBytes: byte..<(byte + pattern.count)) else { continue }
                    if exact, TextFolding.fold(substring(range), keepCase: options.caseSensitive,
                                               keepDiacritics: options.diacriticSensitive) != wanted { continue }
                    if options.wholeWord, !isWholeWord(range) { continue }
                    result.append(range)
                    from = max(from, foldedOffset(ofCharacter: range.upperBound))
                }
            }
        }
        return result
    }

    /// The first occurrence of `pattern` in `haystack` at or after `from`: `memchr` finds
    /// candidates for the first byte, `memcmp` checks the rest (glibc's `memmem` is not
    /// exported to Swift).
    static func find(_ pattern: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer, from: Int) -> Int? {
        let first = Int32(pattern[0])
        var position = from
        let last = haystack.count - pattern.count
        while position <= last {
            guard let hit = memchr(haystack.baseAddress! + position, first, last - position + 1) else { return nil }
            let offset = haystack.baseAddress!.distance(to: UnsafeRawPointer(hit))
            if memcmp(haystack.baseAddress! + offset, pattern.baseAddress!, pattern.count) == 0 { return offset }
            position = offset + 1
        }
        return nil
    }

    /// The text at character offsets `range`.
    public func substring(_ range: Range<Int>) -> Substring {
        let start = index(ofCharacter: range.lowerBound)
        var end = start
        for _ in range { guard end < text.endIndex else { break }; end = text.index(after: end) }
        return text[start..<end]
    }

    /// The string index of character `offset` (from the nearest checkpoint).
    func index(ofCharacter offset: Int) -> String.Index {
        guard !checkpoints.isEmpty else { return text.startIndex }
        let checkpoint = min(max(0, offset) / Self.checkpointInterval, checkpoints.count - 1)
        var index = checkpoints[checkpoint].index
        var count = checkpoint * Self.checkpointInterval
        while count < offset, index < text.endIndex {
            index = text.index(after: index)
            count += 1
        }
        return index
    }

    /// Where character `offset` starts in the folded text.
    func foldedOffset(ofCharacter offset: Int) -> Int {
        guard !checkpoints.isEmpty else { return 0 }
        let checkpoint = min(max(0, offset) / Self.checkpointInterval, checkpoints.count - 1)
        var index = checkpoints[checkpoint].index
        var byte = checkpoints[checkpoint].folded
        var count = checkpoint * Self.checkpointInterval
        while count < offset, index < text.endIndex {
            byte += TextFolding.fold(text[index]).utf8.count
            index = text.index(after: index)
            count += 1
        }
        return byte
    }

    /// The characters whose folds cover exactly `bytes` of the folded text; nil when the
    /// bytes start or end inside one character's fold.
    func characterRange(foldedBytes bytes: Range<Int>) -> Range<Int>? {
        var low = 0, high = checkpoints.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if checkpoints[middle].folded <= bytes.lowerBound { low = middle } else { high = middle - 1 }
        }
        var index = checkpoints[low].index
        var byte = checkpoints[low].folded
        var count = low * Self.checkpointInterval
        while byte < bytes.lowerBound, index < text.endIndex {
            byte += TextFolding.fold(text[index]).utf8.count
            index = text.index(after: index)
            count += 1
        }
        guard byte == bytes.lowerBound else { return nil }
        let start = count
        while byte < bytes.upperBound, index < text.endIndex {
            byte += TextFolding.fold(text[index]).utf8.count
            index = text.index(after: index)
            count += 1
        }
        guard byte == bytes.upperBound else { return nil }
        return start..<count
    }

    func isWholeWord(_ range: Range<Int>) -> Bool {
        func isWordCharacter(_ character: Character) -> Bool {
            (character.isLetter || character.isNumber || character == "_") && !UnspacedScripts.contains(character)
        }
        let start = index(ofCharacter: range.lowerBound)
        let end = index(ofCharacter: range.upperBound)
        if start > text.startIndex, isWordCharacter(text[text.index(before: start)]), isWordCharacter(text[start]) { return false }
        if end < text.endIndex, end > start, isWordCharacter(text[end]), isWordCharacter(text[text.index(before: end)]) { return false }
        return true
    }

    func regexRanges(of pattern: String, options: TextSearchOptions, limit: Int) throws(TextSearchError) -> [Range<Int>] {
        let regex: Regex<AnyRegexOutput>
        do {
            regex = try Regex(pattern)
        } catch {
            throw .invalidRegularExpression(pattern)
        }
        let matcher = options.caseSensitive ? regex : regex.ignoresCase()
        var result: [Range<Int>] = []
        var offset = 0
        var position = text.startIndex
        for match in text.matches(of: matcher) where !match.range.isEmpty {
            offset += text.distance(from: position, to: match.range.lowerBound)
            let length = text.distance(from: match.range.lowerBound, to: match.range.upperBound)
            let range = offset..<(offset + length)
            position = match.range.lowerBound
            if options.wholeWord, !isWholeWord(range) { continue }
            result.append(range)
            if result.count >= limit { break }
        }
        return result
    }
}
