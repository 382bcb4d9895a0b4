import Bookshelf
import Terminal

/// Where the bookshelf's cover panel goes in a window: at the right of the list, from the
/// row under the title bar to the row above the status line.
struct ShelfPanelLayout: Sendable, Equatable {
    /// The columns left to the list.
    let listWidth: Int
    /// The panel's first column (its separator line).
    let column: Int
    let width: Int
    /// The cells the picture may take (it is centred in their width, at their top).
    let picture: Rect
    /// The last row of the panel.
    let bottom: Int

    /// The narrowest window with a panel: the list keeps 90 columns, room for its titles.
    static let minimumColumns = 120
    /// Rows kept under the picture for the title and the author.
    static let textRows = 4

    /// The panel for a window of `rows` × `columns`; nil when it is too small for one.
    init?(rows: Int, columns: Int) {
        guard columns >= Self.minimumColumns, rows >= 12 else { return nil }
        width = min(60, max(28, columns / 4))
        listWidth = columns - width
        column = listWidth
        bottom = rows - 2
        let top = 1
        let height = bottom - top + 1 - Self.textRows
        picture = Rect(row: top + 1, column: column + 2, width: width - 3, height: max(1, height - 1))
    }
}

/// Draws the text of the bookshelf's cover panel (the picture itself is written after
/// ncurses, see `ReaderApp.drawShelfCover()`): a separator line, the title and the author
/// under the picture, or a few words where there is no picture.
@MainActor
enum ShelfCoverView {
    static func draw(_ layout: ShelfPanelLayout, entry: LibraryEntry, cover: PanelCover?, painter: Painter,
                     statistics: BookReadingStatistics? = nil) {
        for row in 1...layout.bottom {
            painter.text("│", row: row, column: layout.column, .secondary)
        }
        let area = layout.picture
        var row = area.row
        switch cover {
        case .picture(let picture)?:
            row += picture.rows + 1
        case .placeholder(let reason)?:
            row += drawPlaceholder(reason, in: area, painter: painter) + 1
        case nil:
            // Loading: the title stays where it will be under most covers.
            row += area.height + 1
        }
        let lines = TextFitting.wrap(entry.title, width: area.width).prefix(2)
        for line in lines where row <= layout.bottom {
            painter.text(TextFitting.visual(line), row: row, column: area.column, .text, width: area.width)
            row += 1
        }
        if !entry.author.isEmpty, row <= layout.bottom {
            painter.text(TextFitting.fitted(entry.author, to: area.width), row: row, column: area.column, .secondary, width: area.width)
            row += 1
        }
        // A calibre book's series and tags (#34).
        let calibre = ShelfCoverView.seriesAndTags(entry)
        if !calibre.isEmpty, row <= layout.bottom {
            painter.text(TextFitting.fitted(calibre, to: area.width), row: row, column: area.column, .secondary, width: area.width)
            row += 1
        }
        // What the person's reading of the book came to.
        for line in ReadingStatisticsText.lines(statistics) where row + 1 <= layout.bottom {
            row += 1
            painter.text(TextFitting.truncate(line, to: area.width), row: row, column: area.column, .secondary, width: area.width)
        }
    }

    /// "Series #2 · tag, tag", or nothing for a book calibre did not describe.
    nonisolated static func seriesAndTags(_ entry: LibraryEntry) -> String {
        let index = entry.seriesIndex.map { $0 == $0.rounded() ? " #\(Int($0))" : " #\($0)" } ?? ""
        return ([entry.series.map { $0 + index }].compactMap { $0 } + (entry.tags.isEmpty ? [] : [entry.tags.joined(separator: ", ")]))
            .joined(separator: " · ")
    }

    /// A frame of a cover's proportions with `reason` in it, at the top of `area`; returns
    /// its height.
    @discardableResult
    static func drawPlaceholder(_ reason: String, in area: Rect, painter: Painter) -> Int {
        let box = min(area.width, 24)
        let left = area.column + (area.width - box) / 2
        let height = min(area.height, max(3, box * 3 / 4))
        drawFrame(row: area.row, column: left, width: box, height: height, painter: painter)
        let words = TextFitting.wrap(reason, width: max(1, box - 4)).prefix(max(1, height - 2))
        var line = area.row + max(1, (height - words.count) / 2)
        for word in words where line < area.row + height - 1 {
            painter.text(word, row: line, column: left + (box - TextFitting.width(word)) / 2, .secondary)
            line += 1
        }
        return height
    }

    private static func drawFrame(row: Int, column: Int, width: Int, height: Int, painter: Painter) {
        guard width >= 2, height >= 2 else { return }
        let horizontal = String(repeating: "─", count: width - 2)
        painter.text("┌" + horizontal + "┐", row: row, column: column, .secondary)
        painter.text("└" + horizontal + "┘", row: row + height - 1, column: column, .secondary)
        for line in (row + 1)..<(row + height - 1) {
            painter.text("│", row: line, column: column, .secondary)
            painter.text("│", row: line, column: column + width - 1, .secondary)
        }
    }
}
