import Terminal

/// The book's bookmarks (`'`): Enter jumps, `r` names one, `d` deletes one.
struct BookmarksScreen: Screen {
    var state: BookmarksState

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        state.list.visibleRows = Self.listRows(windowRows: size.rows)
        switch state.handle(key) {
        case .close: return [.pop]
        case .jump(let locator): return [.pop, .jumpToLocator(locator)]
        case .delete(let removed): return [.deleteBookmark(removed)]
        case .rename(let renamed): return [.renameBookmark(renamed)]
        case .stay: return []
        }
    }

    func draw(into painter: Painter) {
        // The rows shown follow the window: worked out on a copy, drawing changes nothing.
        var shown = state
        shown.list.visibleRows = Self.listRows(windowRows: painter.rows)
        PopupViews.drawBookmarks(shown, painter: painter)
    }

    /// The bookmarks shown in a window of `rows` rows (a row less than a list: the keys' line).
    static func listRows(windowRows rows: Int) -> Int { PopupViews.listRows(windowRows: rows) - 1 }
}
