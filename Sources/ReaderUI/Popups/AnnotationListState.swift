import Annotations
import Bookshelf
import FoundationEssentials
import Shared
import Terminal

/// The book's highlights and notes in a list (`A`): chapter, quote, note and date on each
/// row, in reading order. Typing filters them (every word typed must be in the chapter,
/// the quote or the note, case aside); the arrows move; Enter goes there.
struct AnnotationListState: Sendable {
    /// One row of the list, its text made once (shown safely: no control characters).
    struct Row: Sendable {
        let annotation: Annotation
        let chapter: String
        let quote: String
        let note: String
        let date: String
        /// What the filter searches, folded.
        let searchable: String
    }

    let rows: [Row]
    /// The bookshelf's list of the whole library: each annotation's book, by annotation id
    /// (empty in the reader, which lists its own book's).
    let books: [String: LibraryEntry]
    private(set) var filter = TextField()
    /// The indices of `rows` the filter keeps.
    private(set) var shown: [Int]
    var list: ListState

    /// `annotations` in reading order (`order` gives each its chapter index), titled with
    /// `chapterTitle` when the annotation has no headings of its own; those of `orphans` (their
    /// quote no longer in the book) are marked "orphaned".
    init(annotations: [Annotation], order: (Annotation) -> (Int, Int), chapterTitle: (Annotation) -> String, visibleRows: Int = 10,
         books: [String: LibraryEntry] = [:], orphans: Set<String> = []) {
        self.books = books
        let sorted = annotations.sorted { order($0) < order($1) }
        rows = sorted.map { annotation in
            let headings = annotation.target.headings.filter { !$0.isEmpty }
            var chapter = TerminalText.singleLine(headings.last ?? chapterTitle(annotation)).trimmed
            if let book = books[annotation.id] { chapter = TerminalText.singleLine(book.title).trimmed + (chapter.isEmpty ? "" : ", " + chapter) }
            var quote = annotation.target.quoteIsSealed ? "(sealed: open the book to read it)"
                : annotation.target.quote.map { "“" + TerminalText.singleLine($0.exact).trimmed + "”" }
                ?? annotation.target.page.map { "(page \($0))" } ?? ""
            if orphans.contains(annotation.id) { quote = "(orphaned) " + quote }
            let note = TerminalText.singleLine(annotation.note ?? "").trimmed
            let date = String(RFC3339Date.display(annotation.modified).prefix(10))
            return Row(annotation: annotation, chapter: chapter, quote: quote, note: note, date: date,
                       searchable: Self.folded(chapter + " " + quote + " " + note))
        }
        shown = Array(rows.indices)
        list = ListState(count: rows.count, visibleRows: visibleRows)
    }

    var selected: Row? { shown.isEmpty ? nil : rows[shown[list.selection]] }

    enum Effect: Sendable, Equatable {
        case close
        case stay
        /// Go to the annotation (the list closes).
        case jump(Annotation)
        /// Open the annotation's popup (its colour, note, delete).
        case open(Annotation)
    }

    mutating func handle(_ key: Key) -> Effect {
        switch key {
        case .escape, .control("c"):
            return .close
        case .enter:
            return selected.map { .jump($0.annotation) } ?? .stay
        case .tab:
            return selected.map { .open($0.annotation) } ?? .stay
        case .character:
            _ = filter.handle(key)
        case .backspace, .control("h"), .control("u"), .control("w"):
            _ = filter.handle(key)
        default:
            _ = list.handle(key)
            return .stay
        }
        refilter()
        return .stay
    }

    private mutating func refilter() {
        let words = Self.folded(filter.string).split(separator: " ").map(String.init)
        shown = rows.indices.filter { index in words.allSatisfy { rows[index].searchable.contains($0) } }
        list.reset(count: shown.count, selection: 0)
    }

    static func folded(_ text: String) -> String { text.lowercased() }
}
