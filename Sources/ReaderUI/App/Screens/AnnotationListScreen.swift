import Terminal

/// The list of highlights and notes (`A`): the open book's, where Enter goes to one and Tab
/// opens its popup; or the whole library's (on the bookshelf), where Enter opens the book there.
struct AnnotationListScreen: Screen {
    var state: AnnotationListState
    /// Whether it lists the library's annotations (each with its book) rather than the open book's.
    let inLibrary: Bool

    init(state: AnnotationListState, inLibrary: Bool = false) {
        self.state = state
        self.inLibrary = inLibrary
    }

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        // The rows follow the window (drawing works them out on a copy).
        state.list.visibleRows = PopupViews.listRows(windowRows: size.rows)
        switch state.handle(key) {
        case .close: return [.pop]
        case .stay: return []
        case .open(let annotation): return inLibrary ? [] : [.annotation(.open(annotation))]
        case .jump(let annotation):
            guard inLibrary else { return [.pop, .annotation(.jump(annotation))] }
            guard let entry = state.books[annotation.id] else { return [.pop] }
            return [.pop, .openBook(path: entry.path, entry: entry, at: ReaderApp.locator(of: annotation), searching: nil)]
        }
    }

    func draw(into painter: Painter) {
        var shown = state
        shown.list.visibleRows = PopupViews.listRows(windowRows: painter.rows)
        AnnotationViews.drawList(shown, painter: painter)
    }
}
