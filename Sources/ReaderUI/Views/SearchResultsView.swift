import Terminal
import TextLayout

/// Draws the matches of a search in the book: the chapter, then the line around the match
/// with the match in the search colour.
@MainActor
enum SearchResultsView {
    static func draw(_ state: SearchResultsState, painter: Painter) {
        let (width, height) = PopupViews.popupSize(painter, wantedWidth: 100, wantedHeight: max(state.hits.count, 1) + 4)
        let count = "\(state.hits.count)\(state.hits.count >= 2_000 ? "+" : "")"
        let matches = "\(count) match\(state.hits.count == 1 ? "" : "es")" + (state.complete ? "" : " so far")
        let inner = painter.box(title: "“\(TextFitting.isolated(state.query))” — \(matches) — enter go · esc close",
                                width: width, height: max(4, min(height, PopupViews.listRows(windowRows: painter.rows) + 2)))
        var rows = inner.height
        if !state.complete {
            painter.text("The book is still being indexed: some chapters are not listed yet.", row: inner.row + inner.height - 1,
                         column: inner.column, .secondary, width: inner.width)
            rows -= 1
        }
        if state.hits.isEmpty {
            painter.text("No match in the book.", row: inner.row, column: inner.column, .dialog, width: inner.width)
            return
        }
        for (offset, index) in state.list.visibleRange.enumerated() where offset < rows {
            let hit = state.hits[index]
            let row = inner.row + offset
            let width = max(6, inner.width / 4)
            let label = TextFitting.paddedVisual(state.label(at: index), to: width) + "  "
            let characters = Array(hit.snippet)
            let pieces: [(text: String, isMatch: Bool)] = [
                (String(characters[..<hit.matchInSnippet.lowerBound]), false),
                (String(characters[hit.matchInSnippet]), true),
                (String(characters[hit.matchInSnippet.upperBound...]), false),
            ]
            SnippetRow.draw(label: label, pieces: pieces, row: row, column: inner.column, width: inner.width,
                            selected: index == state.list.selection, matchElement: .match, painter: painter)
        }
    }
}
