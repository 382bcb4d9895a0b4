import Annotations
import Shared
import Terminal

/// Draws the popups of highlights and notes: a highlight opened, the note editor, the list.
/// Every quote and note is shown through ``TerminalText`` (an imported note may hold escape
/// sequences).
@MainActor
enum AnnotationViews {
    static func drawDetail(_ state: AnnotationDetailState, painter: Painter) {
        let annotation = state.annotation
        let width = min(72, painter.columns - 2)
        let innerWidth = max(1, width - 4)
        let quote = annotation.target.quote.map { "“" + TerminalText.singleLine($0.exact).trimmed + "”" } ?? "(a note on the page)"
        let quoteLines = Array(TextFitting.wrap(quote, width: innerWidth).prefix(3))
        let noteText = annotation.note.map { TerminalText.sanitized($0) } ?? ""
        let noteLines = noteText.isEmpty ? ["No note: n writes one."]
            : Array(noteText.split(separator: "\n", omittingEmptySubsequences: false)
                .flatMap { TextFitting.wrap(String($0), width: innerWidth) }.prefix(6))
        let height = quoteLines.count + noteLines.count + 6
        let inner = painter.box(title: "Highlight — 1-6 colour · s style · n note · d delete · esc",
                                width: width, height: min(height, painter.rows - 2))
        var row = inner.row
        func line(_ text: String, _ element: ThemeElement = .dialog) {
            guard row < inner.row + inner.height else { return }
            painter.text(TextFitting.visual(text), row: row, column: inner.column, element, width: inner.width)
            row += 1
        }
        for text in quoteLines { line(text) }
        row += 1
        for text in noteLines { line(text, annotation.note == nil ? .secondary : .dialog) }
        row += 1
        if row < inner.row + inner.height {
            // Each colour's name drawn in that colour and the highlight's style: the choice is seen.
            var column = inner.column
            let base = painter.palette[.dialog]
            for (index, color) in HighlightColor.allCases.enumerated() {
                let label = "\(index + 1) \(color.rawValue)"
                let chosen = color == annotation.color
                let text = chosen ? "[" + label + "]" : " " + label + " "
                guard column + TextFitting.width(text) <= inner.column + inner.width else { break }
                let style = HighlightPaint.highlight(color, annotation.style)
                    .style(over: base, palette: painter.palette, colorCount: painter.screen.colorCount)
                painter.screen.draw(text, row: row, column: column, style: chosen ? style.adding(.bold) : style)
                column += TextFitting.width(text)
            }
            row += 1
        }
        line("Style: " + AnnotationDetailState.name(annotation.style) + " (s changes) · "
             + String(RFC3339Date.display(annotation.modified).prefix(10)))
        if state.confirmingDelete {
            painter.bar("Delete this highlight? y deletes · any other key keeps it", row: inner.row + inner.height - 1, .cursor,
                        column: inner.column, width: inner.width)
        }
    }

    static func drawEditor(_ state: NoteEditorState, painter: Painter) {
        let width = min(72, painter.columns - 2)
        let height = min(14, painter.rows - 2)
        let inner = painter.box(title: "Note — enter new line · C-s save · esc cancel", width: width, height: height)
        let (rows, cursorRow, cursorColumn) = state.wrapped(width: inner.width)
        var shown = state
        shown.scroll(cursorRow: cursorRow, height: inner.height)
        for (offset, index) in (shown.top..<min(rows.count, shown.top + inner.height)).enumerated() {
            painter.text(TerminalText.singleLine(rows[index].text), row: inner.row + offset, column: inner.column, .dialog,
                         width: inner.width)
        }
        // The cursor is a cell in reverse video: the terminal's own cursor stays hidden under popups.
        let row = inner.row + cursorRow - shown.top
        if row >= inner.row, row < inner.row + inner.height {
            let text = state.text
            let index = cursorIndex(in: rows, row: cursorRow, column: cursorColumn)
            let under = index < text.count && text[index] != "\n" ? String(text[index]) : " "
            painter.screen.draw(TerminalText.singleLine(under), row: row, column: inner.column + min(cursorColumn, inner.width - 1),
                                style: painter.palette[.dialog].adding(.reverse))
        }
    }

    /// The index in the text of the character at `column` of wrapped `row`.
    private static func cursorIndex(in rows: [(text: String, start: Int)], row: Int, column: Int) -> Int {
        guard rows.indices.contains(row) else { return Int.max }
        var index = rows[row].start, width = 0
        for character in rows[row].text {
            if width >= column { break }
            width += max(1, TextFitting.width(String(character)))
            index += 1
        }
        return index
    }

    static func drawList(_ state: AnnotationListState, painter: Painter) {
        let width = min(100, painter.columns - 2)
        let title = "Annotations (\(state.shown.count)/\(state.rows.count)) — type to filter · enter go · tab open · esc"
        let inner = painter.box(title: title, width: width, height: PopupViews.listRows(windowRows: painter.rows) + 3)
        let filterRow = inner.row + inner.height - 1
        if state.rows.isEmpty {
            painter.text("No highlights yet: select with v, then H.", row: inner.row, column: inner.column, .dialog, width: inner.width)
        } else if state.shown.isEmpty {
            painter.text("No annotation matches.", row: inner.row, column: inner.column, .secondary, width: inner.width)
        }
        for (offset, index) in state.list.visibleRange.enumerated() where inner.row + offset < filterRow {
            let item = state.rows[state.shown[index]]
            var text = item.date + "  " + item.chapter + " — " + item.quote
            if !item.note.isEmpty { text += " · " + item.note }
            let element: ThemeElement = index == state.list.selection ? .cursor : .dialog
            painter.bar(TextFitting.fitted(text, to: inner.width), row: inner.row + offset, element, column: inner.column, width: inner.width)
        }
        painter.bar("Filter: " + TerminalText.singleLine(state.filter.string), row: filterRow, .input, column: inner.column, width: inner.width)
    }
}
