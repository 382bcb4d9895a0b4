import Bookshelf
import FoundationEssentials
import Pictures
import Shared
import Terminal

/// Pictures in the reader: a comic's or a PDF's pages drawn in the window, read ahead, and
/// written to the terminal after ncurses has drawn the rest.
extension ReaderApp {
    /// The picture display for `publication`, when it is read as pictures and pictures are on.
    func makePictureDisplay(for publication: Publication) -> PictureDisplay? {
        let comic = PicturePages(comic: publication)
        guard let pages = comic ?? PicturePages(pdf: publication) else { return nil }
        let output = PictureOutput.resolve(setting: config.images, environment: ProcessInfo.processInfo.environment)
        guard let renderer = PageRenderer(pages: pages, output: output) else { return nil }
        return PictureDisplay(renderer: renderer, isPDF: comic == nil)
    }

    /// The cells pictures are drawn in: the window above the status line.
    var pictureArea: (rows: Int, columns: Int) {
        let (rows, columns) = screen.size
        return (max(1, rows - 1), max(1, columns))
    }

    /// Whether `session` shows its page as a picture now.
    func showsPicture(_ session: ReaderSession) -> Bool {
        session.pictures?.isOn == true && session.playback == nil
    }

    /// Asks for the page shown and its neighbours to be drawn, off the main actor.
    func requestPictures(_ session: ReaderSession) {
        guard let display = session.pictures, display.isOn else { return }
        let area = pictureArea
        let page = session.state.chapter
        let current = display.request(page: page, columns: area.columns, rows: area.rows)
        requestPicture(current, display: display, session: session)
        // Read ahead: the next page first, then the previous one, at the top of the page.
        for neighbour in [page + 1, page - 1] where neighbour >= 0 && neighbour < session.source.count {
            var request = current
            request.page = neighbour
            request.panRow = 0
            requestPicture(request, display: display, session: session)
        }
    }

    private func requestPicture(_ request: PageRequest, display: PictureDisplay, session: ReaderSession) {
        guard display.result(for: request) == nil, !display.pending.contains(request) else { return }
        display.pending.insert(request)
        let renderer = display.renderer
        session.background.append(Task { @MainActor [weak self] in
            let result = await Blocking.run { () -> Result<RenderedPage, PictureError> in
                do throws(PictureError) { return .success(try renderer.render(request)) } catch { return .failure(error) }
            }
            display.pending.remove(request)
            guard let self, case .reader(let current) = self.page, current === session else { return }
            display.store(result, for: request, around: session.state.chapter)
            if request.page == session.state.chapter { self.render() }
        })
    }

    /// Handles a key that means something else for pictures; true when it did.
    func handlePictureAction(_ action: ReaderAction, count: Int?, session: ReaderSession) -> Bool {
        guard let display = session.pictures else { return false }
        if action == .togglePictures {
            guard display.isPDF else { message = "This book's pages are pictures only."; return true }
            display.isOn.toggle()
            message = display.isOn ? "Page pictures" : "Page text"
            if display.isOn { requestPictures(session) }
            return true
        }
        guard display.isOn else { return false }
        let times = max(1, count ?? 1)
        let area = pictureArea
        let total = display.result(for: display.request(page: session.state.chapter, columns: area.columns, rows: area.rows))
            .flatMap { try? $0.get().totalRows } ?? area.rows
        let lastPan = max(0, total - area.rows)
        let rightToLeft = session.state.rightToLeft
        func turn(_ delta: Int) {
            let target = session.state.chapter + delta
            guard target >= 0, target < session.source.count else {
                message = delta > 0 ? "This is the last page." : "This is the first page."
                return
            }
            display.panRow = delta < 0 && display.fit == .width ? Int.max / 2 : 0
            load(session, chapter: target, anchor: .start)
        }
        func pan(_ rows: Int, orTurn delta: Int) {
            if display.fit == .width {
                let clamped = min(display.panRow, lastPan)
                if rows > 0, clamped < lastPan { display.panRow = min(lastPan, clamped + rows); return }
                if rows < 0, clamped > 0 { display.panRow = max(0, clamped + rows); return }
            }
            turn(delta)
        }
        switch action {
        case .toggleFit:
            display.fit = display.fit == .page ? .width : .page
            display.panRow = 0
            message = display.fit == .page ? "Fit page" : "Fit width (j k to pan)"
        case .pageDown: pan(area.rows - 1, orTurn: times)
        case .pageUp: pan(-(area.rows - 1), orTurn: -times)
        case .pageRight: pan(area.rows - 1, orTurn: rightToLeft ? -times : times)
        case .pageLeft: pan(-(area.rows - 1), orTurn: rightToLeft ? times : -times)
        case .lineDown where display.fit == .width: pan(2 * times, orTurn: 1)
        case .lineUp where display.fit == .width: pan(-2 * times, orTurn: -1)
        case .halfPageDown: pan(area.rows / 2, orTurn: 1)
        case .halfPageUp: pan(-(area.rows / 2), orTurn: -1)
        case .lineDown: turn(times)
        case .lineUp: turn(-times)
        default: return false
        }
        requestPictures(session)
        return true
    }

    /// Writes the picture of the page shown, once ncurses has drawn everything else; or takes
    /// a picture away that should no longer be there.
    func drawPictures() {
        let display: PictureDisplay?
        if case .reader(let session) = page, showsPicture(session) { display = session.pictures } else { display = nil }
        guard let display, case .reader(let session) = page else {
            takePicturesAway(from: lastPictureDisplay)
            lastPictureDisplay = nil
            return
        }
        lastPictureDisplay = display
        let area = pictureArea
        let request = display.request(page: session.state.chapter, columns: area.columns, rows: area.rows)
        // A popup or a dialog lies over the page: pixels laid over cells (kitty) would hide it.
        let covered = !overlays.isEmpty || passphrase != nil
        guard !covered, case .success(let rendered)? = display.result(for: request) else {
            if covered, display.pictureProtocol.isTextCells, display.drawn != nil { return }
            takePicturesAway(from: display)
            return
        }
        let picture = rendered.picture
        let row = max(0, (area.rows - picture.rows) / 2)
        let column = max(0, (area.columns - picture.columns) / 2)
        var sequence = ""
        if let drawn = display.drawn, drawn.request != request || drawn.row != row || drawn.column != column {
            // Another picture, or elsewhere: the old one goes first, with a full repaint.
            takePicturesAway(from: display)
        } else if display.drawn != nil, !display.pictureProtocol.isTextCells {
            // Pixels already there stay there: ncurses only rewrote the cells that changed.
            return
        }
        if display.pictureProtocol == .kitty { sequence += Self.kittyDeleteAll }
        sequence += picture.placed(row: row, column: column)
        screen.writeOverlay(sequence)
        display.drawn = (request, row, column)
    }

    /// Removes what `display` drew: repaints the whole screen (the cells ncurses believes
    /// blank) and deletes kitty images.
    func takePicturesAway(from display: PictureDisplay?) {
        guard let display, display.drawn != nil else { return }
        display.drawn = nil
        if display.pictureProtocol == .kitty { screen.writeOverlay(Self.kittyDeleteAll) }
        screen.invalidate()
        screen.refresh()
    }

    /// Forgets where pictures were (the screen was cleared: resize, Ctrl-L).
    func picturesInvalidated() {
        if case .reader(let session) = page, let display = session.pictures {
            display.drawn = nil
            display.forgetAll()
            requestPictures(session)
        }
    }

    static let kittyDeleteAll = "\u{1B}_Ga=d,d=A,q=2\u{1B}\\"
}
