/// A match of a whole-book search.
public struct BookSearchHit: Sendable, Hashable {
    /// The reading-order item.
    public var chapter: Int
    /// Character offsets in that item's text (the reader's positions).
    public var range: Range<Int>
    /// A line of text around the match, and where the match is in it (character offsets).
    public var snippet: String
    public var matchInSnippet: Range<Int>
}

/// Where the bytes of a chapter's text are kept outside memory (the book's text file in the
/// cache): read one chapter at a time, so that a search over the whole book holds one
/// chapter, not the book.
public protocol BookTextStore: Sendable {
    /// `count` bytes at `offset`; nil when they cannot be read.
    func bytes(at offset: Int, count: Int) -> [UInt8]?
}

/// One chapter's text in a ``BookTextStore``: its UTF-8 followed by its folded form
/// (``SearchableText/foldedBytes``), and its character count.
public struct StoredChapterText: Sendable {
    public let store: any BookTextStore
    public let offset: Int
    public let textBytes: Int
    public let foldedBytes: Int
    public let length: Int

    public init(store: any BookTextStore, offset: Int, textBytes: Int, foldedBytes: Int, length: Int) {
        self.store = store
        self.offset = offset
        self.textBytes = textBytes
        self.foldedBytes = foldedBytes
        self.length = length
    }

    /// The chapter's text, read from the store.
    public func text() -> String? {
        store.bytes(at: offset, count: textBytes).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether a plain (not regular-expression) search for `query` may match: its folded
    /// form is in the chapter's folded bytes. Reads those bytes a window at a time (a long
    /// chapter is never read whole for a query it lacks), and no text is folded.
    func mayContain(_ query: String) -> Bool {
        let needle = Array(TextFolding.fold(query).utf8)
        guard !needle.isEmpty, needle.count <= foldedBytes else { return false }
        let window = max(Self.window, needle.count * 2)
        var start = 0
        while start + needle.count <= foldedBytes {
            // Windows overlap by the needle's length less one: a match across two is seen.
            let count = min(window, foldedBytes - start)
            guard let folded = store.bytes(at: offset + textBytes + start, count: count) else { return true }
            let found = folded.withUnsafeBytes { haystack in
                needle.withUnsafeBytes { SearchableText.find($0, in: haystack, from: 0) != nil }
            }
            if found { return true }
            start += count - (needle.count - 1)
        }
        return false
    }

    /// How many folded bytes ``mayContain(_:)`` reads at a time.
    public static let window = 1 << 18
}

/// The text of every reading-order item of a book, prepared for search: built in the
/// background once the first page is shown. A chapter is either in memory
/// (``SearchableText``: a protected book, whose text never reaches the disk) or in the book's
/// text file (``StoredChapterText``), read when searched and let go at once, so that memory
/// does not grow with the book.
public struct BookTextIndex: Sendable {
    public enum Chapter: Sendable {
        case inMemory(SearchableText)
        case stored(StoredChapterText)

        /// The character count of the chapter's text.
        public var length: Int {
            switch self {
            case .inMemory(let text): text.length
            case .stored(let stored): stored.length
            }
        }
    }

    public private(set) var chapters: [Chapter?]

    public init(chapterCount: Int) {
        chapters = Array(repeating: nil, count: chapterCount)
    }

    /// Whether every item's text is in.
    public var isComplete: Bool { !chapters.contains { $0 == nil } }

    /// The first chapter whose text is not in yet (the book pass goes in reading order).
    public var firstMissing: Int? { chapters.firstIndex { $0 == nil } }

    /// How many chapters are held in memory (the others are in the book's text file).
    public var chaptersInMemory: Int {
        chapters.reduce(0) { count, chapter in
            if case .inMemory? = chapter { return count + 1 }
            return count
        }
    }

    public mutating func set(_ text: SearchableText, chapter: Int) {
        guard chapters.indices.contains(chapter) else { return }
        chapters[chapter] = .inMemory(text)
    }

    public mutating func set(_ stored: StoredChapterText, chapter: Int) {
        guard chapters.indices.contains(chapter) else { return }
        chapters[chapter] = .stored(stored)
    }

    /// The text of `chapter` held in memory, if it is (nothing is read).
    public func inMemory(_ chapter: Int) -> SearchableText? {
        guard chapters.indices.contains(chapter), case .inMemory(let text)? = chapters[chapter] else { return nil }
        return text
    }

    /// The text of `chapter` prepared for search, read from the store when it is there
    /// (blocking: call off the main actor); nil when the index does not hold it.
    public func searchable(_ chapter: Int) -> SearchableText? {
        guard chapters.indices.contains(chapter), let entry = chapters[chapter] else { return nil }
        switch entry {
        case .inMemory(let text): return text
        case .stored(let stored): return SearchableText(stored.text() ?? "")
        }
    }

    /// The matches of `query` in `chapter` (blocking), nil when the index does not hold the
    /// chapter. A stored chapter whose folded bytes lack the query is not read further.
    public func ranges(inChapter chapter: Int, of query: String, options: TextSearchOptions = TextSearchOptions(),
                       limit: Int = .max) throws(TextSearchError) -> [Range<Int>]? {
        guard chapters.indices.contains(chapter), let entry = chapters[chapter] else { return nil }
        switch entry {
        case .inMemory(let text):
            return try text.ranges(of: query, options: options, limit: limit)
        case .stored(let stored):
            if !options.regularExpression, !stored.mayContain(query) { return [] }
            return try SearchableText(stored.text() ?? "").ranges(of: query, options: options, limit: limit)
        }
    }

    /// Every match of `query` in the items whose text is in, in reading order, at most `limit`.
    /// Blocking when chapters are stored: one chapter's text is held at a time.
    public func search(_ query: String, options: TextSearchOptions = TextSearchOptions(),
                       limit: Int = 10_000) throws(TextSearchError) -> [BookSearchHit] {
        var hits: [BookSearchHit] = []
        try forEachChapterMatching(query, options: options, limit: limit) { chapter, text, ranges in
            hits += ranges.map { Self.hit(text, chapter: chapter, range: $0) }
        }
        return hits
    }

    /// Where `query` matches, as ``search(_:options:limit:)`` finds it, without the snippets:
    /// to count the matches and number the one shown.
    public func matches(_ query: String, options: TextSearchOptions = TextSearchOptions(),
                        limit: Int = 10_000) throws(TextSearchError) -> [(chapter: Int, range: Range<Int>)] {
        var matches: [(chapter: Int, range: Range<Int>)] = []
        try forEachChapterMatching(query, options: options, limit: limit) { chapter, _, ranges in
            matches += ranges.map { (chapter, $0) }
        }
        return matches
    }

    /// Calls `body` with each chapter that has matches, its text and them, in reading order,
    /// `limit` matches in all.
    private func forEachChapterMatching(_ query: String, options: TextSearchOptions, limit: Int,
                                        _ body: (Int, SearchableText, [Range<Int>]) -> Void) throws(TextSearchError) {
        var found = 0
        for chapter in chapters.indices {
            guard chapters[chapter] != nil, found < limit else { continue }
            if case .stored(let stored)? = chapters[chapter], !options.regularExpression, !stored.mayContain(query) { continue }
            guard let text = searchable(chapter) else { continue }
            let ranges = try text.ranges(of: query, options: options, limit: limit - found)
            guard !ranges.isEmpty else { continue }
            found += ranges.count
            body(chapter, text, ranges)
        }
    }

    /// The hit with a snippet: up to 30 characters before the match and 50 after, on one line.
    static func hit(_ text: SearchableText, chapter: Int, range: Range<Int>) -> BookSearchHit {
        let before = text.substring(max(0, range.lowerBound - 30)..<range.lowerBound)
        let match = text.substring(range)
        let after = text.substring(range.upperBound..<min(text.length, range.upperBound + 50))
        func line(_ part: Substring) -> String { String(part.map { $0 == "\n" || $0 == "\t" ? " " : $0 }) }
        let lead = line(before)
        return BookSearchHit(chapter: chapter, range: range, snippet: lead + line(match) + line(after),
                             matchInSnippet: lead.count..<(lead.count + match.count))
    }
}
