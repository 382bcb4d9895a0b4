import Bookshelf
import FoundationEssentials
import Pictures
import Shared
import Terminal

/// The bookshelf's cover panel: the selected publication's cover at the right of the list,
/// loaded off the main actor and written to the terminal after ncurses, like the reader's
/// pages (``drawPictures()``).
extension ReaderApp {
    /// The cover panel's state; its output is resolved on first use.
    var shelfCoverDisplay: ShelfCoverDisplay {
        if let display = shelfCovers { return display }
        let output = PictureOutput.resolve(setting: config.images, environment: ProcessInfo.processInfo.environment)
        let display = ShelfCoverDisplay(output: output)
        shelfCovers = display
        return display
    }

    /// The panel for the window and the selected publication; nil when there is none (a
    /// narrow window, pictures off, nothing selected).
    func shelfPanel() -> (layout: ShelfPanelLayout, entry: LibraryEntry, key: PanelCoverKey)? {
        guard shelfCoverDisplay.pictureProtocol != nil, let entry = shelf.selectedEntry else { return nil }
        let (rows, columns) = screen.size
        guard let layout = ShelfPanelLayout(rows: rows, columns: columns) else { return nil }
        let identity = entry.identity.isEmpty ? "path:" + entry.path : entry.identity
        return (layout, entry, PanelCoverKey(identity: identity, columns: layout.picture.width, rows: layout.picture.height))
    }

    /// Draws the shelf with its cover panel's text (the picture comes after ncurses).
    func drawShelfWithCover(painter: Painter) {
        guard let panel = shelfPanel() else {
            ShelfView.draw(shelf, painter: painter)
            return
        }
        ShelfView.draw(shelf, painter: painter, listWidth: panel.layout.listWidth)
        ShelfCoverView.draw(panel.layout, entry: panel.entry, cover: shelfCoverDisplay.panelCover(for: panel.key), painter: painter)
    }

    /// Writes the selected publication's cover in the panel once ncurses has drawn the rest,
    /// asks for it when it is not ready, or takes away a cover that should no longer be there.
    func drawShelfCover() {
        guard case .shelf = page, let panel = shelfPanel() else {
            takeShelfCoverAway()
            return
        }
        let display = shelfCoverDisplay
        requestShelfCover(panel.entry, key: panel.key)
        // A popup or a dialog lies over the shelf: pixels laid over cells (kitty) would hide it.
        let covered = !overlays.isEmpty || passphrase != nil
        let textCells = display.pictureProtocol?.isTextCells == true
        guard !covered, case .picture(let picture)? = display.panelCover(for: panel.key) else {
            if covered, textCells, display.drawn?.key == panel.key { return }
            takeShelfCoverAway()
            return
        }
        let area = panel.layout.picture
        let row = area.row, column = area.column + max(0, (area.width - picture.columns) / 2)
        if let drawn = display.drawn, drawn.key != panel.key || drawn.row != row || drawn.column != column {
            // Another cover, or elsewhere: the old one goes first, with a full repaint.
            takeShelfCoverAway()
        } else if display.drawn != nil, !textCells {
            // Pixels already there stay there: ncurses only rewrote the cells that changed.
            return
        }
        var sequence = display.pictureProtocol == .kitty ? Self.kittyDeleteAll : ""
        sequence += picture.placed(row: row, column: column)
        screen.writeOverlay(sequence)
        display.drawn = (panel.key, row, column)
    }

    /// Loads and encodes the cover for `key` off the main actor, unless it is ready or
    /// another cover is being loaded (then the selection is looked at again when that one
    /// is done: only the latest selection's cover is loaded next).
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

    /// Removes the cover drawn: repaints the whole screen (the cells ncurses believes blank)
    /// and deletes kitty images.
    func takeShelfCoverAway() {
        guard let display = shelfCovers, display.drawn != nil else { return }
        display.drawn = nil
        if display.pictureProtocol == .kitty { screen.writeOverlay(Self.kittyDeleteAll) }
        screen.invalidate()
        screen.refresh()
    }

    /// Forgets where the cover was (the screen was cleared: resize, Ctrl-L).
    func shelfCoversInvalidated() {
        shelfCovers?.drawn = nil
    }
}
