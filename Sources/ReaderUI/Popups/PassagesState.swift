import Bookshelf
import Terminal

/// The passages a library search found (the bookshelf's `F`), best first.
public struct PassagesState: Sendable {
    public let query: String
    public private(set) var hits: [FullTextHit]
    /// Unprotected publications not indexed yet (their passages are missing from the list).
    public let pending: Int
    /// Why the search failed, when it did.
    public let error: String?
    public var list: ListState

    public init(query: String, hits: [FullTextHit], pending: Int = 0, error: String? = nil, visibleRows: Int = 10) {
        self.query = query
        self.hits = hits
        self.pending = pending
        self.error = error
        list = ListState(count: hits.count, visibleRows: visibleRows)
    }

    public var selected: FullTextHit? { hits.isEmpty ? nil : hits[list.selection] }
}
