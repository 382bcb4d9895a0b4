import Terminal

/// Every match of the search in the book (`S`); Enter shows the one selected.
struct SearchResultsScreen: Screen {
    var state: SearchResultsState

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        if key == .escape || key == .character("q") || key == .character("S") { return [.pop] }
        state.list.visibleRows = Self.listRows(windowRows: size.rows)
        if key == .enter || key == .character("l") || key == .right, let hit = state.selected {
            let message = "“\(TextFitting.isolated(state.query))” \(state.list.selection + 1)/\(state.hits.count) · n next · N previous"
            return [.pop, .showSearchHit(hit), .message(message)]
        }
        _ = state.list.handle(key)
        return []
    }

    func draw(into painter: Painter) {
        // The rows shown follow the window: worked out on a copy, drawing changes nothing.
        var shown = state
        shown.list.visibleRows = Self.listRows(windowRows: painter.rows)
        SearchResultsView.draw(shown, painter: painter)
    }

    /// The hits shown in a window of `rows` rows (a row less than a list: the query's line).
    static func listRows(windowRows rows: Int) -> Int { PopupViews.listRows(windowRows: rows) - 1 }
}
