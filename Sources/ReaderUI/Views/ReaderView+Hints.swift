import Terminal
import TextLayout

extension ReaderView {
    /// The hint labels over the first cells of their links, in the current-match colours
    /// (reverse video without colours), as vimium draws them.
    static func drawHintLabels(_ hints: HintMode, book: BookController, painter: Painter) {
        let top = book.state.visibleLines.lowerBound
        let style = painter.palette[.currentMatch].adding(.bold)
        for (label, target) in hints.shown {
            let row = target.line - top
            guard row >= 0, row < painter.rows - 1 else { continue }
            let column = book.column.leftMargin + target.column
            painter.screen.draw(label, row: row, column: min(column, max(0, painter.columns - label.count)), style: style)
        }
    }

    /// The status line of hint mode or of the external-link question; false when neither.
    static func drawHintStatus(_ book: BookController, painter: Painter) -> Bool {
        let text: String
        if let url = book.pendingExternalLink {
            text = ReaderApp.externalLinkQuestion(url)
        } else if let hints = book.hints {
            let notes = hints.targets.filter(\.isNote).count, highlights = hints.targets.filter { $0.annotationID != nil }.count
            let marked = highlights > 0 ? ", \(highlights) highlights" : ""
            text = "Follow: type a label (\(hints.targets.count - notes - highlights) links, \(notes) notes\(marked)) · esc cancels"
        } else {
            return false
        }
        painter.bar(" " + TextFitting.truncate(text, to: max(0, painter.columns - 2)), row: painter.rows - 1, .status)
        return true
    }
}
