import Terminal

/// The Catalogs view (`c` on the bookshelf) as a page mode (#30): it owns the browser's state,
/// turns keys into effects (fetching a feed, getting a book, back to the shelf) and draws
/// itself; fetching and downloading are the application's (``ReaderApp/perform(_:)``).
struct CatalogsScreen: Screen {
    var state = CatalogBrowserState()
    /// The keys its help popup lists.
    let keyMap: KeyMap

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        state.visibleRows = CatalogsView.listRows(windowRows: size.rows)
        if key == .control("c") { return [.quit] }
        switch state.handle(key) {
        case .none: return []
        case .close: return [.showShelf]
        case .help: return [.push(HelpScreen(help: HelpState(keyMap: keyMap, context: .catalogs)))]
        case .load(let request): return [.loadCatalog(request)]
        case .acquire(let catalog, let publication, let link): return [.acquire(catalog: catalog, publication, link)]
        }
    }

    func draw(into painter: Painter) {
        // The rows shown follow the window: worked out on a copy (drawing changes nothing).
        var shown = state
        shown.visibleRows = CatalogsView.listRows(windowRows: painter.rows)
        CatalogsView.draw(shown, painter: painter)
    }

    /// The search field places the cursor where the terms are typed.
    var placesCursor: Bool { state.searchField != nil }
}
