import Terminal

/// A picture of the text shown alone, as large as the window (`i`). The picture itself is
/// written after ncurses (``ReaderApp/drawPictures()``); this draws its empty window and caption.
struct ImageScreen: Screen {
    /// The picture's resource.
    let href: String
    /// Its alternative text.
    let caption: String

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        // Any of the keys that open or close things closes it; others keep it open.
        if key == .escape || key == .character("q") || key == .character("i") || key == .enter { return [.pop] }
        return []
    }

    func draw(into painter: Painter) {
        let (rows, columns) = (painter.rows, painter.columns)
        painter.screen.clear(style: painter.palette[.text])
        painter.bar(" " + TextFitting.truncate(caption.isEmpty ? "Picture" : caption, to: max(0, columns - 20)), row: rows - 1, .status)
        painter.text("esc close ", row: rows - 1, column: max(0, columns - 10), .status)
    }
}
