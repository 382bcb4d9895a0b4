import Bookshelf
import Terminal

/// Draws the passages of a library search: one row each, the book's title, then the snippet
/// with the matched words in the link colour.
@MainActor
enum PassagesView {
    static func draw(_ state: PassagesState, painter: Painter) {
        let wanted = max(state.hits.count + state.notes.count, 1) + 3 + (state.pending > 0 ? 1 : 0)
        let (width, height) = PopupViews.popupSize(painter, wantedWidth: 110, wantedHeight: wanted)
        let inner = painter.box(title: "Passages — \(TextFitting.isolated(state.query)) — enter open · esc close", width: width,
                                height: max(4, min(height, PopupViews.listRows(windowRows: painter.rows) + 2)))
        var rows = inner.height
        if state.pending > 0 {
            let note = "\(state.pending) book\(state.pending == 1 ? " is" : "s are") still being indexed."
            painter.text(note, row: inner.row + inner.height - 1, column: inner.column, .secondary, width: inner.width)
            rows -= 1
        }
        if let error = state.error {
            painter.text(error, row: inner.row, column: inner.column, .error, width: inner.width)
            return
        }
        if state.hits.isEmpty, state.notes.isEmpty {
            painter.text("No passage of an indexed book has these words.", row: inner.row, column: inner.column, .dialog, width: inner.width)
            return
        }
        for (offset, index) in state.list.visibleRange.enumerated() where offset < rows {
            let row = inner.row + offset
            // The notes found come first, marked as notes.
            let isNote = index < state.notes.count
            let publication = isNote ? state.notes[index].publication : state.hits[index - state.notes.count].publication
            let snippet = isNote ? state.notes[index].snippet : state.hits[index - state.notes.count].snippet
            let title = TextFitting.fitted(publication.title, to: max(8, inner.width / 4)) + (isNote ? "  note: " : "  ")
            SnippetRow.draw(label: title, pieces: snippet.map { ($0.text, $0.isMatch) }, row: row, column: inner.column,
                            width: inner.width, selected: index == state.list.selection, matchElement: .link, painter: painter)
        }
    }
}
