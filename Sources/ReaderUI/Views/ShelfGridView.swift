import Bookshelf
import Terminal

/// The bookshelf's covers view (`v`): the publications as a grid of covers with their titles,
/// rows of tiles from the row under the title bar to the row above the status line.
struct ShelfGridLayout: Sendable, Equatable {
    /// The cells of one tile: the picture, its title under it, a gap.
    static let tileColumns = 18, tileRows = 12
    static let pictureColumns = 16, pictureRows = 10
    /// The first row of tiles.
    static let firstRow = 2

    /// Tiles in a row, and rows of tiles in the window.
    let perRow: Int
    let visibleRows: Int

    /// The grid for a window of `rows` × `columns`; nil when not even one row of tiles fits.
    init?(rows: Int, columns: Int) {
        let tileRowsFitting = (rows - 3) / Self.tileRows
        guard tileRowsFitting >= 1, columns >= Self.tileColumns + 2 else { return nil }
        perRow = max(1, (columns - 1) / Self.tileColumns)
        visibleRows = tileRowsFitting
    }

    /// The first row of tiles shown so that the tile of `selection` is visible, scrolling
    /// from `top` as little as possible.
    func scrolled(top: Int, selection: Int) -> Int {
        let row = selection / perRow
        if row < top { return row }
        if row >= top + visibleRows { return row - visibleRows + 1 }
        return top
    }

    /// The items shown when the grid starts at tile row `top`.
    func visibleItems(top: Int, count: Int) -> Range<Int> {
        let first = min(count, top * perRow)
        return first..<min(count, first + visibleRows * perRow)
    }

    /// The picture cells of item `index` when the grid starts at tile row `top`.
    func picture(of index: Int, top: Int) -> Rect {
        let row = index / perRow - top, column = index % perRow
        return Rect(row: Self.firstRow + row * Self.tileRows, column: 1 + column * Self.tileColumns,
                    width: Self.pictureColumns, height: Self.pictureRows)
    }
}

/// Draws the text of the covers view (the pictures are written after ncurses): a header, each
/// tile's title (the selected one highlighted) and the placeholders of covers that cannot be
/// shown.
@MainActor
enum ShelfGridView {
    static func draw(_ state: ShelfState, layout: ShelfGridLayout, top: Int, covers: (LibraryEntry) -> PanelCover?, painter: Painter) {
        // The list's title bar and status line, then the grid over the list.
        ShelfView.draw(state, painter: painter)
        for row in 1..<(painter.rows - 1) { painter.bar("", row: row, .text) }
        painter.bar(" Covers · v list · h j k l move · enter open", row: 1, .header)
        for index in layout.visibleItems(top: top, count: state.visible.count) {
            let entry = state.entries[state.visible[index]]
            let area = layout.picture(of: index, top: top)
            if case .placeholder(let reason)? = covers(entry) {
                ShelfCoverView.drawPlaceholder(reason, in: area, painter: painter)
            }
            let title = TextFitting.paddedVisual(state.displayTitle(of: entry), to: area.width)
            painter.text(title, row: area.row + area.height, column: area.column,
                         index == state.list.selection ? .cursor : .text, width: area.width)
        }
    }
}
