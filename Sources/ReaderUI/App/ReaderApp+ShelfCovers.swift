import Bookshelf
import FoundationEssentials
import Pictures
import Shared
import Terminal

/// The bookshelf's covers: the selected publication's cover in a panel at the right of the
/// list, or every cover in the covers view (`v`); loaded off the main actor and written to the
/// terminal after ncurses, like the reader's pages (``drawPictures()``).
extension ReaderApp {
    /// How the shelf shows covers in the window now.
    enum ShelfCoverLayout {
        case panel(ShelfPanelLayout, LibraryEntry)
        case grid(ShelfGridLayout)
    }

    /// A cover the shelf shows: whose, in which cells.
    struct ShelfCoverSlot {
        let entry: LibraryEntry
        let key: PanelCoverKey
        let area: Rect
    }

    /// The covers' state; its output is resolved on first use.
    var shelfCoverDisplay: ShelfCoverDisplay {
        if let display = shelfCovers { return display }
        let output = pictureOutput
        let display = ShelfCoverDisplay(output: output)
        shelfCovers = display
        return display
    }

    /// Covers in the window now; nil when there are none (pictures off, a narrow window,
    /// nothing selected).
    func shelfCoverLayout() -> ShelfCoverLayout? {
        let display = shelfCoverDisplay
        guard display.pictureProtocol != nil, let entry = shelf.selectedEntry else { return nil }
        let (rows, columns) = screen.size
        if display.isGrid, let grid = ShelfGridLayout(rows: rows, columns: columns) { return .grid(grid) }
        return ShelfPanelLayout(rows: rows, columns: columns).map { .panel($0, entry) }
    }

    /// The grid's first tile row shown: where it was left, scrolled to the selection.
    func gridTop(_ grid: ShelfGridLayout) -> Int {
        grid.scrolled(top: shelfCoverDisplay.gridTop, selection: shelf.list.selection)
    }

    /// Keeps where the grid is scrolled once a key is handled (drawing changes nothing), so
    /// that the next move scrolls from there.
    func settleShelfGrid() {
        guard case .shelf = page, case .grid(let grid)? = shelfCoverLayout() else { return }
        shelfCoverDisplay.gridTop = gridTop(grid)
    }

    /// The covers shown, the selected one first (it is loaded first).
    func shelfCoverSlots(_ layout: ShelfCoverLayout) -> [ShelfCoverSlot] {
        func key(_ entry: LibraryEntry, _ area: Rect) -> PanelCoverKey {
            PanelCoverKey(identity: entry.identity.isEmpty ? "path:" + entry.path : entry.identity, columns: area.width, rows: area.height)
        }
        switch layout {
        case .panel(let panel, let entry):
            return [ShelfCoverSlot(entry: entry, key: key(entry, panel.picture), area: panel.picture)]
        case .grid(let grid):
            let top = gridTop(grid)
            var slots: [ShelfCoverSlot] = []
            for index in grid.visibleItems(top: top, count: shelf.visible.count) {
                let entry = shelf.entries[shelf.visible[index]], area = grid.picture(of: index, top: top)
                let slot = ShelfCoverSlot(entry: entry, key: key(entry, area), area: area)
                if index == shelf.list.selection { slots.insert(slot, at: 0) } else { slots.append(slot) }
            }
            return slots
        }
    }

    /// Draws the bookshelf `shelf` (the application's, its rows fitted to the window) with the
    /// text of its covers, beside the list or as a grid (the pictures come after ncurses).
    func drawShelfWithCover(_ shelf: ShelfState, painter: Painter) {
        let display = shelfCoverDisplay
        switch shelfCoverLayout() {
        case nil:
            ShelfView.draw(shelf, painter: painter)
        case .panel(let panel, let entry)?:
            ShelfView.draw(shelf, painter: painter, listWidth: panel.listWidth)
            let slot = shelfCoverSlots(.panel(panel, entry))[0]
            ShelfCoverView.draw(panel, entry: entry, cover: display.panelCover(for: slot.key), painter: painter,
                                statistics: shelf.statistics[entry.identity])
        case .grid(let grid)?:
            let covers = Dictionary(shelfCoverSlots(.grid(grid)).map { ($0.entry.id, $0.key) }, uniquingKeysWith: { first, _ in first })
            ShelfGridView.draw(shelf, layout: grid, top: gridTop(grid),
                               covers: { entry in covers[entry.id].flatMap { display.panelCover(for: $0) } }, painter: painter)
        }
    }

    /// Handles the keys of the covers view; true when it did.
    func handleShelfCoverKey(_ key: Key) -> Bool {
        guard case .browsing = shelf.mode else { return false }
        let display = shelfCoverDisplay
        if key == .character("v") {
            guard display.pictureProtocol != nil else {
                shelf.message = "Pictures are off (images = \"off\" in config.toml or LECTERN_IMAGES): no covers view."
                return true
            }
            display.isGrid.toggle()
            let (rows, columns) = screen.size
            if display.isGrid, ShelfGridLayout(rows: rows, columns: columns) == nil { shelf.message = "The window is too small for the covers view." }
            return true
        }
        guard display.isGrid, case .grid(let grid)? = shelfCoverLayout() else { return false }
        switch key {
        case .left, .character("h"): shelf.list.move(by: -1)
        case .right, .character("l"): shelf.list.move(by: 1)
        case .down, .character("j"): shelf.list.move(by: grid.perRow)
        case .up, .character("k"): shelf.list.move(by: -grid.perRow)
        case .pageDown, .control("d"), .control("f"): shelf.list.move(by: grid.perRow * grid.visibleRows)
        case .pageUp, .control("u"), .control("b"): shelf.list.move(by: -grid.perRow * grid.visibleRows)
        default: return false
        }
        return true
    }

    /// Writes the covers shown once ncurses has drawn the rest, asks for those not ready, or
    /// takes away covers that should no longer be there.
    func drawShelfCover() {
        guard case .shelf = page, let layout = shelfCoverLayout() else {
            takeShelfCoverAway()
            return
        }
        let display = shelfCoverDisplay
        let slots = shelfCoverSlots(layout)
        if let missing = slots.first(where: { display.panelCover(for: $0.key) == nil }) {
            requestShelfCover(missing.entry, key: missing.key)
        }
        var wanted: [CoverPlacement: TerminalPicture] = [:]
        for slot in slots {
            guard case .picture(let picture)? = display.panelCover(for: slot.key) else { continue }
            let column = slot.area.column + max(0, (slot.area.width - picture.columns) / 2)
            wanted[CoverPlacement(key: slot.key, row: slot.area.row, column: column)] = picture
        }
        let textCells = display.pictureProtocol?.isTextCells == true
        // A popup or a dialog lies over the shelf: pixels laid over cells (kitty) would hide
        // it; text cells stay, ncurses drew the popup over them.
        if pageIsCovered {
            if textCells, !display.drawn.isEmpty, display.drawn.isSubset(of: wanted.keys) { return }
            takeShelfCoverAway()
            return
        }
        // Covers gone or moved: the old ones go first, with a full repaint.
        if !display.drawn.isSubset(of: wanted.keys) { takeShelfCoverAway() }
        var sequence = display.drawn.isEmpty && !wanted.isEmpty ? (display.pictureProtocol?.erasingSequence ?? "") : ""
        // Pixels already there stay there (ncurses only rewrote the cells that changed); text
        // cells are written again, since ncurses may have written over them.
        for (placement, picture) in wanted where textCells || !display.drawn.contains(placement) {
            sequence += picture.placed(row: placement.row, column: placement.column)
        }
        if !sequence.isEmpty { screen.writeOverlay(sequence) }
        display.drawn = Set(wanted.keys)
    }

    /// Loads and encodes the cover for `key` off the main actor, unless another cover is
    /// being loaded (then what is shown is looked at again when that one is done: only the
    /// latest selection's cover is loaded next).
    func requestShelfCover(_ entry: LibraryEntry, key: PanelCoverKey) {
        let display = shelfCoverDisplay
        guard display.panelCover(for: key) == nil, display.loading == nil else { return }
        display.loading = key
        let known = display.cover(identity: key.identity)
        let loader = ShelfCoverLoader(open: dependencies.open)
        let output = display.output
        Task { @MainActor [weak self] in
            let cover: ShelfCover
            if let known { cover = known } else { cover = await loader.cover(of: entry) }
            let panelCover = await Blocking.run { ShelfCoverDisplay.encode(cover, columns: key.columns, rows: key.rows, output: output) }
            display.loading = nil
            display.store(cover, identity: key.identity)
            display.store(panelCover, for: key)
            guard let self, case .shelf = self.page else { return }
            self.render()
        }
    }

    /// Removes the covers drawn: repaints the whole screen (the cells ncurses believes
    /// blank) and deletes kitty images.
    func takeShelfCoverAway() {
        guard let display = shelfCovers, !display.drawn.isEmpty else { return }
        display.drawn = []
        if let erase = display.pictureProtocol?.erasingSequence, !erase.isEmpty { screen.writeOverlay(erase) }
        screen.invalidate()
        screen.refresh()
    }

    /// Forgets where the covers were (the screen was cleared: resize, Ctrl-L).
    func shelfCoversInvalidated() {
        shelfCovers?.drawn = []
    }
}
