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

/// The text of every reading-order item of a book, prepared for search (``SearchableText``):
/// built in the background once the first page is shown, and then every search of the book is
/// a scan of memory, hit or miss.
public struct BookTextIndex: Sendable {
    public private(set) var chapters: [SearchableText?]

    public init(chapterCount: Int) {
        chapters = Array(repeating: nil, count: chapterCount)
    }

    /// Whether every item's text is in.
    public var isComplete: Bool { !chapters.contains { $0 == nil } }

    public mutating func set(_ text: SearchableText, chapter: Int) {
        guard chapters.indices.contains(chapter) else { return }
        chapters[chapter] = text
    }

    /// Every match of `query` in the items whose text is in, in reading order, at most `limit`.
    public func search(_ query: String, options: TextSearchOptions = TextSearchOptions(),
                       limit: Int = 10_000) throws(TextSearchError) -> [BookSearchHit] {
        var hits: [BookSearchHit] = []
        for (chapter, text) in chapters.enumerated() {
            guard let text, hits.count < limit else { continue }
            for range in try text.ranges(of: query, options: options, limit: limit - hits.count) {
                hits.append(Self.hit(text, chapter: chapter, range: range))
            }
        }
        return hits
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
