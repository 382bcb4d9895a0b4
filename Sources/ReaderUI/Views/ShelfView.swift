import Bookshelf
import Shared
import Terminal

/// Draws the bookshelf: a title bar, the column headers, the publications, and a status line
/// with the keys, the filter, a prompt or a confirmation.
@MainActor
enum ShelfView {
    /// The rows the list gets in a window of `rows` rows.
    static func listRows(windowRows rows: Int) -> Int { max(1, rows - 3) }

    /// Draws the shelf; the list takes `listWidth` columns when given (a cover panel beside it).
    static func draw(_ state: ShelfState, painter: Painter, listWidth: Int? = nil) {
        let rows = painter.rows, columns = listWidth ?? painter.columns
        let count = state.entries.count
        var title = " Lectern — \(count) publication\(count == 1 ? "" : "s")"
        if state.visible.count != count { title += " (\(state.visible.count) shown)" }
        title += " · sort: \(state.sort.rawValue)"
        painter.bar(title, row: 0, .status)

        let loanWidth = state.loans.isEmpty ? 0 : state.entries.compactMap { state.loan(of: $0) }.map { TextFitting.width($0.label) }.max() ?? 0
        let layout = ColumnLayout(width: columns, loanWidth: loanWidth)
        painter.bar(layout.row(title: "Title", author: "Author", format: "Format", protection: "Lock", loan: "Loan", progress: "Read"),
                    row: 1, .header, width: columns)
        if !state.loaded {
            painter.text("Loading the library…", row: 2, column: 1, .secondary)
        } else if state.entries.isEmpty {
            painter.text("The library is empty. Press i to import a file or folder,", row: 2, column: 1, .secondary)
            painter.text("or run: lectern import PATH…", row: 3, column: 1, .secondary)
        } else if state.visible.isEmpty {
            painter.text("Nothing matches \"\(state.filter.string)\".", row: 2, column: 1, .secondary)
        }
        for (offset, index) in state.list.visibleRange.enumerated() {
            let entry = state.entries[state.visible[index]]
            let row = 2 + offset
            guard row < rows - 1 else { break }
            let progress = entry.progress.map { "\(Int(($0 * 100).rounded()))%" } ?? ""
            let text = layout.row(title: state.displayTitle(of: entry), author: entry.author, format: Format.displayName(entry.format), protection: entry.protection.label,
                                  loan: state.loan(of: entry)?.label ?? "", progress: progress)
            if index == state.list.selection {
                painter.bar(text, row: row, .cursor, width: columns)
            } else {
                painter.text(text, row: row, column: 0, .text, width: columns)
            }
        }
        drawStatus(state, painter: painter)
    }

    static func drawStatus(_ state: ShelfState, painter: Painter) {
        let row = painter.rows - 1
        switch state.mode {
        case .filtering:
            let text = "Filter: " + state.filter.string
            painter.bar(text, row: row, .input)
            painter.screen.setCursor(row: row, column: min(painter.columns - 1, TextFitting.width(text)))
            return
        case .importing(let field):
            if let message = state.message { painter.bar(TextFitting.fitted(message, to: painter.columns, interfaceLine: true), row: row - 1, .secondary) }
            let text = "Import (file, folder or .lcpl; tab completes): " + field.string
            painter.bar(text, row: row, .input)
            painter.screen.setCursor(row: row, column: min(painter.columns - 1, TextFitting.width(text)))
            return
        case .relinking(let entry, let field):
            if let message = state.message { painter.bar(TextFitting.fitted(message, to: painter.columns, interfaceLine: true), row: row - 1, .secondary) }
            let text = "New place of \"\(TerminalText.singleLine(entry.title))\" (tab completes): " + field.string
            painter.bar(text, row: row, .input)
            painter.screen.setCursor(row: row, column: min(painter.columns - 1, TextFitting.width(text)))
            return
        case .searchingText(let field):
            let text = "Find in the text of every book: " + field.string
            painter.bar(text, row: row, .input)
            painter.screen.setCursor(row: row, column: min(painter.columns - 1, TextFitting.width(text)))
            return
        case .confirmingDelete(let entry):
            let fileNote = LibraryStore.ownsFile(of: entry) ? " and delete its file" : " (the file stays)"
            painter.bar(TextFitting.fitted("Remove \"\(TextFitting.isolated(entry.title))\" from the library\(fileNote)? y/n", to: painter.columns, interfaceLine: true), row: row, .error)
        case .browsing:
            var text = state.message ?? "enter open · / filter · F find in books · s sort · i import · c catalogs · d delete · L license · ? help · q quit"
            if state.message == nil, !state.filter.text.isEmpty { text = "filter: \(state.filter.string) (esc clears) · " + text }
            painter.bar(TextFitting.fitted(text, to: painter.columns, interfaceLine: true), row: row, .status)
        }
        painter.screen.setCursor(row: nil)
    }

    /// The widths of the bookshelf's columns for a window width: the loan column is as wide
    /// as the longest loan label on the shelf (none without loans), and narrow windows drop the
    /// format, then the author, before the loan — a loan's days left matter more.
    struct ColumnLayout {
        let width: Int
        /// The widest loan label of the shelf; 0 when no publication is a loan.
        var loanWidth: Int = 0

        /// The loan column's width: its header at least, at most a long label.
        var loanColumn: Int { min(16, max(4, loanWidth)) }
        var showsLoan: Bool { loanWidth > 0 && width >= 40 }
        var showsFormat: Bool { width >= 80 }
        var showsAuthor: Bool { flexible >= 30 }

        /// What is left for the title and the author.
        private var flexible: Int {
            var fixed = 5 + 9 // progress, protection
            if showsLoan { fixed += loanColumn + 1 }
            if showsFormat { fixed += 11 }
            return max(4, width - fixed - 1)
        }

        func row(title: String, author: String, format: String, protection: String, loan: String, progress: String) -> String {
            let authorWidth = showsAuthor ? flexible / 3 : 0
            let titleWidth = flexible - authorWidth
            // Titles and authors from the books, in visual order (a Hebrew title reads right to left).
            var text = " " + TextFitting.paddedVisual(title, to: titleWidth - 1) + " "
            if showsAuthor { text += TextFitting.paddedVisual(author, to: authorWidth - 1) + " " }
            if showsFormat { text += TextFitting.pad(format, to: 10) + " " }
            text += TextFitting.pad(protection, to: 8) + " "
            if showsLoan { text += TextFitting.pad(loan, to: loanColumn) + " " }
            text += TextFitting.pad(progress, to: 4)
            return text
        }
    }
}
