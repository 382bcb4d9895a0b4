import Terminal

/// The help popup (`?`): the keys of the bookshelf, the catalogs or the reader.
struct HelpScreen: Screen {
    var help: HelpState

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        if key == .escape || key == .character("q") || key == .character("?") || key == .enter { return [.pop] }
        _ = help.scroll(key, rows: size.rows - 4, width: HelpState.innerWidth(columns: size.columns))
        return []
    }

    func draw(into painter: Painter) {
        PopupViews.drawHelp(help, painter: painter)
    }
}
