import Bookshelf
import FoundationEssentials
import Pictures
import Shared
import Terminal

/// The bookshelf's covers: the selected publication's cover in a panel at the right of the
/// list, or every cover in the covers view (`v`); loaded off the main actor and written to the
/// terminal after ncurses, like the reader's pages (``drawPictures()``).
extension ReaderApp {
    /// The covers' state; its output is resolved on first use.
    var shelfCoverDisplay: ShelfCoverDisplay {
        if let display = shelfCovers { return display }
        let output = pictureOutput
        let display = ShelfCoverDisplay(output: output)
        shelfCovers = display
        return display
    }

    /// Keeps where the grid is scrolled once a key is handled (drawing changes nothing), so
    /// that the next move scrolls from there.
    func settleShelfGrid() {
        guard case .shelf = page, let bookshelf, case .grid(let grid)? = bookshelf.coverLayout(screen.size) else { return }
        shelfCoverDisplay.gridTop = bookshelf.gridTop(grid)
    }

    /// Writes the covers shown once ncurses has drawn the rest, asks for those not ready, or
    /// takes away covers that should no longer be there.
    func drawShelfCover() {
        guard case .shelf = page, let bookshelf, let layout = bookshelf.coverLayout(screen.size) else {
            takeShelfCoverAway()
            return
        }
        let display = shelfCoverDisplay
        let slots = bookshelf.coverSlots(layout)
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
