import Terminal
import TextLayout

/// Every match of a search in the book (`S` after a search), in reading order.
public struct SearchResultsState: Sendable {
    public let query: String
    public let hits: [BookSearchHit]
    /// Where each hit is: its section's title, its chapter's number or its PDF page.
    public let labels: [String]
    /// Whether the whole book was searched (else only the chapters already indexed).
    public let complete: Bool
    public var list: ListState

    public init(query: String, hits: [BookSearchHit], labels: [String], complete: Bool, visibleRows: Int = 10) {
        self.query = query
        self.hits = hits
        self.labels = labels
        self.complete = complete
        list = ListState(count: hits.count, visibleRows: visibleRows)
    }

    public var selected: BookSearchHit? { hits.isEmpty ? nil : hits[list.selection] }

    /// The label of the hit at `index` (``labels``), else its chapter's number.
    public func label(at index: Int) -> String {
        labels.indices.contains(index) ? labels[index] : hits.indices.contains(index) ? "ch. \(hits[index].chapter + 1)" : ""
    }
}
