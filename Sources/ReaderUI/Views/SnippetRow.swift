import Terminal

/// One row of a list of found passages: a label (a book, a chapter), then the snippet, its
/// matched words drawn in `matchElement` unless the row is the selected one.
@MainActor
enum SnippetRow {
    static func draw(label: String, pieces: [(text: String, isMatch: Bool)], row: Int, column left: Int, width: Int,
                     selected: Bool, matchElement: ThemeElement, painter: Painter) {
        let base: ThemeElement = selected ? .cursor : .dialog
        painter.bar(label, row: row, base, column: left, width: width)
        var column = left + TextFitting.width(label)
        for piece in pieces {
            let room = left + width - column
            guard room > 0 else { break }
            let fitted = TextFitting.truncate(piece.text, to: room)
            painter.text(fitted, row: row, column: column, piece.isMatch && !selected ? matchElement : base, width: room)
            column += TextFitting.width(fitted)
        }
    }
}
