import Terminal
import TextLayout

/// Every match of a search in the book (`S` after a search), in reading order.
public struct SearchResultsState: Sendable {
    public let query: String
    public let hits: [BookSearchHit]
    /// The table-of-contents title of each reading-order item ("" when it has none).
    public let chapterTitles: [String]
    /// Whether the whole book was searched (else only the chapters already indexed).
    public let complete: Bool
    public var list: ListState

    public init(query: String, hits: [BookSearchHit], chapterTitles: [String], complete: Bool, visibleRows: Int = 10) {
        self.query = query
        self.hits = hits
        self.chapterTitles = chapterTitles
        self.complete = complete
        list = ListState(count: hits.count, visibleRows: visibleRows)
    }

    public var selected: BookSearchHit? { hits.isEmpty ? nil : hits[list.selection] }

    /// The label of a hit's chapter: its title, else its number.
    public func chapterLabel(_ hit: BookSearchHit) -> String {
        let title = hit.chapter < chapterTitles.count ? chapterTitles[hit.chapter] : ""
        return title.isEmpty ? "ch. \(hit.chapter + 1)" : title
    }
}
