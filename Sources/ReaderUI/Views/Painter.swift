import Terminal

/// Drawing helpers over the terminal with the current theme: boxes, centred popups, rows.
@MainActor
struct Painter {
    let screen: any Canvas
    let palette: ThemePalette

    var rows: Int { screen.size.rows }
    var columns: Int { screen.size.columns }

    func text(_ string: String, row: Int, column: Int, _ element: ThemeElement, width: Int? = nil) {
        screen.draw(string, row: row, column: column, style: palette[element], maxWidth: width)
    }

    /// A full-width row of `element`'s background with `string` on it.
    func bar(_ string: String, row: Int, _ element: ThemeElement, column: Int = 0, width: Int? = nil) {
        let width = width ?? (columns - column)
        screen.fill(row: row, column: column, width: width, style: palette[element])
        screen.draw(TextFitting.truncate(string, to: width), row: row, column: column, style: palette[element], maxWidth: width)
    }

    /// A box (a popup): frame, title, background; returns its inner rectangle.
    @discardableResult
    func box(title: String, width wantedWidth: Int, height wantedHeight: Int) -> Rect {
        let width = max(8, min(wantedWidth, columns))
        let boxHeight = max(3, min(wantedHeight, rows))
        let top = max(0, (rows - boxHeight) / 2)
        let left = max(0, (columns - width) / 2)
        let border = palette[.dialogBorder]
        for row in top..<(top + boxHeight) {
            screen.fill(row: row, column: left, width: width, style: palette[.dialog])
        }
        let horizontal = String(repeating: "─", count: max(0, width - 2))
        screen.draw("┌" + horizontal + "┐", row: top, column: left, style: border)
        screen.draw("└" + horizontal + "┘", row: top + boxHeight - 1, column: left, style: border)
        for row in (top + 1)..<max(top + 1, top + boxHeight - 1) {
            screen.draw("│", row: row, column: left, style: border)
            screen.draw("│", row: row, column: left + width - 1, style: border)
        }
        if !title.isEmpty {
            screen.draw(" " + TextFitting.fitted(title, to: width - 6, interfaceLine: true) + " ", row: top, column: left + 2, style: palette[.dialogTitle])
        }
        return Rect(row: top + 1, column: left + 2, width: max(1, width - 4), height: max(1, boxHeight - 2))
    }
}

/// A rectangle of cells.
struct Rect: Sendable, Hashable {
    var row: Int
    var column: Int
    var width: Int
    var height: Int
}
