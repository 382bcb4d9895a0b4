import Bookshelf
import Shared
import Terminal

/// Passages found in the library's books (the bookshelf's `F`): Enter opens the book there,
/// the search carried into it.
struct PassagesScreen: Screen {
    var state: PassagesState

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        if key == .escape || key == .character("q") { return [.pop] }
        state.list.visibleRows = Self.listRows(windowRows: size.rows)
        if key == .enter || key == .character("o") || key == .right, let note = state.selectedNote {
            return [.pop, .openBook(path: note.publication.path, entry: note.publication,
                                    at: ReaderApp.locator(of: note), searching: nil)]
        }
        if key == .enter || key == .character("o") || key == .right, let hit = state.selected {
            return [.pop, .openBook(path: hit.publication.path, entry: hit.publication, at: hit.locator, searching: state.query)]
        }
        _ = state.list.handle(key)
        return []
    }

    func draw(into painter: Painter) {
        // The rows shown follow the window: worked out on a copy, drawing changes nothing.
        var shown = state
        shown.list.visibleRows = Self.listRows(windowRows: painter.rows)
        PassagesView.draw(shown, painter: painter)
    }

    /// The passages shown in a window of `rows` rows (a row less than a list: the query's line).
    static func listRows(windowRows rows: Int) -> Int { PopupViews.listRows(windowRows: rows) - 1 }
}
