import Bookshelf
import Terminal

/// The bookshelf as a page mode (#30), at the bottom of the focus stack: it owns the shelf's
/// state (the list, its filter and prompts), turns keys into effects (open, import, remove,
/// the catalogs…) that ``ReaderApp/perform(_:)`` carries out, and draws the list with the text
/// of its covers. It stays under the catalogs and the book, so that coming back finds it as
/// it was left. The covers' pictures are written by the application after ncurses
/// (ReaderApp+ShelfCovers), from the same ``ShelfCoverDisplay``.
struct ShelfScreen: Screen {
    /// How the shelf shows covers in a window.
    enum CoverLayout {
        case panel(ShelfPanelLayout, LibraryEntry)
        case grid(ShelfGridLayout)
    }

    /// A cover the shelf shows: whose, in which cells.
    struct CoverSlot {
        let entry: LibraryEntry
        let key: PanelCoverKey
        let area: Rect
    }

    var state = ShelfState()
    /// The keys its help popup lists.
    let keyMap: KeyMap
    /// The covers loaded and encoded, whether they show as a grid and where it is scrolled.
    let covers: ShelfCoverDisplay

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        state.list.visibleRows = ShelfView.listRows(windowRows: size.rows)
        if key == .control("c") { return [.quit] }
        if handleCoverKey(key, size: size) { return [] }
        if key == .character("A"), case .browsing = state.mode { return [.showLibraryAnnotations] }
        switch state.handle(key) {
        case .none: return []
        case .help: return [.push(HelpScreen(help: HelpState(keyMap: keyMap, context: .shelf)))]
        case .quit: return [.quit]
        case .open(let entry): return [.openBook(path: entry.path, entry: entry, at: nil, searching: nil)]
        case let command: return [.shelf(command)]
        }
    }

    /// The keys of the covers view (`v`, and moving in the grid); true when it was one.
    private mutating func handleCoverKey(_ key: Key, size: (rows: Int, columns: Int)) -> Bool {
        guard case .browsing = state.mode else { return false }
        if key == .character("v") {
            guard covers.pictureProtocol != nil else {
                state.message = "Pictures are off (images = \"off\" in config.toml or LECTERN_IMAGES): no covers view."
                return true
            }
            covers.isGrid.toggle()
            if covers.isGrid, ShelfGridLayout(rows: size.rows, columns: size.columns) == nil {
                state.message = "The window is too small for the covers view."
            }
            return true
        }
        guard covers.isGrid, case .grid(let grid)? = coverLayout(size) else { return false }
        switch key {
        case .left, .character("h"): state.list.move(by: -1)
        case .right, .character("l"): state.list.move(by: 1)
        case .down, .character("j"): state.list.move(by: grid.perRow)
        case .up, .character("k"): state.list.move(by: -grid.perRow)
        case .pageDown, .control("d"), .control("f"): state.list.move(by: grid.perRow * grid.visibleRows)
        case .pageUp, .control("u"), .control("b"): state.list.move(by: -grid.perRow * grid.visibleRows)
        default: return false
        }
        return true
    }

    /// Draws the list (its rows fitted to the window on a copy: drawing changes nothing) with
    /// the text of its covers, beside it or as a grid.
    func draw(into painter: Painter) {
        var shelf = state
        shelf.list.visibleRows = ShelfView.listRows(windowRows: painter.rows)
        switch coverLayout((painter.rows, painter.columns)) {
        case nil:
            ShelfView.draw(shelf, painter: painter)
        case .panel(let panel, let entry)?:
            ShelfView.draw(shelf, painter: painter, listWidth: panel.listWidth)
            let slot = coverSlots(.panel(panel, entry))[0]
            ShelfCoverView.draw(panel, entry: entry, cover: covers.panelCover(for: slot.key), painter: painter,
                                statistics: shelf.statistics[entry.identity])
        case .grid(let grid)?:
            let shown = Dictionary(coverSlots(.grid(grid)).map { ($0.entry.id, $0.key) }, uniquingKeysWith: { first, _ in first })
            ShelfGridView.draw(shelf, layout: grid, top: gridTop(grid),
                               covers: { entry in shown[entry.id].flatMap { covers.panelCover(for: $0) } }, painter: painter)
        }
    }

    /// A prompt of the shelf (the filter, a path, words to find) places the cursor.
    var placesCursor: Bool {
        switch state.mode {
        case .filtering, .importing, .relinking, .searchingText: true
        case .browsing, .confirmingDelete: false
        }
    }

    /// Covers in a window of `size`; nil when there are none (pictures off, a narrow window,
    /// nothing selected).
    func coverLayout(_ size: (rows: Int, columns: Int)) -> CoverLayout? {
        guard covers.pictureProtocol != nil, let entry = state.selectedEntry else { return nil }
        if covers.isGrid, let grid = ShelfGridLayout(rows: size.rows, columns: size.columns) { return .grid(grid) }
        return ShelfPanelLayout(rows: size.rows, columns: size.columns).map { .panel($0, entry) }
    }

    /// The grid's first tile row shown: where it was left, scrolled to the selection.
    func gridTop(_ grid: ShelfGridLayout) -> Int {
        grid.scrolled(top: covers.gridTop, selection: state.list.selection)
    }

    /// The covers shown, the selected one first (it is loaded first).
    func coverSlots(_ layout: CoverLayout) -> [CoverSlot] {
        func key(_ entry: LibraryEntry, _ area: Rect) -> PanelCoverKey {
            PanelCoverKey(identity: entry.identity.isEmpty ? "path:" + entry.path : entry.identity, columns: area.width, rows: area.height)
        }
        switch layout {
        case .panel(let panel, let entry):
            return [CoverSlot(entry: entry, key: key(entry, panel.picture), area: panel.picture)]
        case .grid(let grid):
            let top = gridTop(grid)
            var slots: [CoverSlot] = []
            for index in grid.visibleItems(top: top, count: state.visible.count) {
                let entry = state.entries[state.visible[index]], area = grid.picture(of: index, top: top)
                let slot = CoverSlot(entry: entry, key: key(entry, area), area: area)
                if index == state.list.selection { slots.insert(slot, at: 0) } else { slots.append(slot) }
            }
            return slots
        }
    }
}
