import Bookshelf
import Terminal

/// The passages a library search found (the bookshelf's `F`), best first, after the notes of
/// highlights it found (#31: the person's own words, listed first).
public struct PassagesState: Sendable {
    public let query: String
    public private(set) var hits: [FullTextHit]
    public private(set) var notes: [AnnotationNoteHit]
    /// Unprotected publications not indexed yet (their passages are missing from the list).
    public let pending: Int
    /// Why the search failed, when it did.
    public let error: String?
    public var list: ListState

    public init(query: String, hits: [FullTextHit], notes: [AnnotationNoteHit] = [], pending: Int = 0, error: String? = nil,
                visibleRows: Int = 10) {
        self.query = query
        self.hits = hits
        self.notes = notes
        self.pending = pending
        self.error = error
        list = ListState(count: notes.count + hits.count, visibleRows: visibleRows)
    }

    /// The passage selected (nil on a note's row).
    public var selected: FullTextHit? { hits.indices.contains(list.selection - notes.count) ? hits[list.selection - notes.count] : nil }
    /// The note selected (nil on a passage's row).
    public var selectedNote: AnnotationNoteHit? { notes.indices.contains(list.selection) ? notes[list.selection] : nil }
}
