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
        guard let renderer = PageRenderer(pages: pages, output: pictureOutput) else { return nil }
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
    /// `page`: the page about to be shown, asked for while its chapter loads (default: the page shown).
    func requestPictures(_ session: ReaderSession, page: Int? = nil) {
        guard let display = session.pictures, display.isOn else { return }
        let area = pictureArea
        let count = session.source.count
        let shown = display.requests(with: page ?? session.state.chapter, count: count, columns: area.columns, rows: area.rows)
        for request in shown { requestPicture(request, display: display, session: session) }
        // Read ahead: the next page (or spread) first, then the previous one, at their top.
        let pages = shown.map(\.page)
        for neighbour in [pages.max()! + 1, pages.min()! - 1] where neighbour >= 0 && neighbour < count {
            for var request in display.requests(with: neighbour, count: count, columns: area.columns, rows: area.rows) {
                request.panRow = 0
                requestPicture(request, display: display, session: session)
            }
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
            display.store(result, for: request, around: [session.state.chapter] + (session.loadingChapter.map { [$0] } ?? []))
            if display.pagesShown(with: session.state.chapter, count: session.source.count).contains(request.page) { self.render() }
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
            let shown = display.pagesShown(with: session.state.chapter, count: session.source.count)
            var target = session.state.chapter + delta
            if shown.count > 1 || (display.spread && display.fit == .page) {
                target = delta > 0 ? shown.max()! + 1 : (display.pagesShown(with: shown.min()! - 1, count: session.source.count).min() ?? -1)
            }
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
        case .openImage:
            return false
        case .toggleSpread:
            display.spread.toggle()
            display.fit = .page
            message = display.spread ? "Two pages side by side" : "One page"
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

    /// Writes the pictures of the page shown, once ncurses has drawn everything else; or takes
    /// away pictures that should no longer be there.
    func drawPictures() {
        guard case .reader(let session) = page, session.playback == nil else {
            takePicturesAway(from: lastPictureDisplay)
            takeFiguresAway(from: lastFigureDisplay)
            return
        }
        if case .image(let href, _)? = overlays.last, let figures = session.figures {
            takePicturesAway(from: lastPictureDisplay)
            drawFullImage(href, figures: figures, session: session)
        } else if showsPicture(session), let display = session.pictures {
            takeFiguresAway(from: lastFigureDisplay)
            drawPage(display, session: session)
        } else if let figures = session.figures {
            takePicturesAway(from: lastPictureDisplay)
            drawFigures(figures, session: session)
        } else {
            takePicturesAway(from: lastPictureDisplay)
        }
    }

    /// A popup or a dialog lies over the page.
    private var pageIsCovered: Bool { !overlays.isEmpty || passphrase != nil }

    private func drawPage(_ display: PictureDisplay, session: ReaderSession) {
        lastPictureDisplay = display
        let area = pictureArea
        let requests = display.requests(with: session.state.chapter, count: session.source.count, columns: area.columns, rows: area.rows)
        let pictures = requests.compactMap { request -> TerminalPicture? in
            if case .success(let rendered)? = display.result(for: request) { return rendered.picture }
            return nil
        }
        guard !pageIsCovered, pictures.count == requests.count else {
            // Text cells under a popup stay (ncurses drew the popup over them); pixels laid over
            // cells (kitty) would hide the popup.
            if pageIsCovered, display.pictureProtocol.isTextCells, !display.drawn.isEmpty { return }
            takePicturesAway(from: display)
            return
        }
        // Side by side in reading order: a right-to-left book puts the first page on the right.
        var order = Array(zip(requests, pictures))
        if session.state.rightToLeft { order.reverse() }
        var column = max(0, (area.columns - (pictures.map(\.columns).reduce(0, +) + pictures.count - 1)) / 2)
        var placements: [PictureDisplay.Placement] = []
        for (request, picture) in order {
            placements.append(.init(request: request, row: max(0, (area.rows - picture.rows) / 2), column: column))
            column += picture.columns + 1
        }
        if !display.drawn.isEmpty, display.drawn != placements {
            // Other pictures, or elsewhere: the old ones go first, with a full repaint.
            takePicturesAway(from: display)
        } else if !display.drawn.isEmpty, !display.pictureProtocol.isTextCells {
            // Pixels already there stay there: ncurses only rewrote the cells that changed.
            return
        }
        var sequence = display.pictureProtocol == .kitty ? Self.kittyDeleteAll : ""
        for (placement, (_, picture)) in zip(placements, order) {
            sequence += picture.placed(row: placement.row, column: placement.column)
        }
        screen.writeOverlay(sequence)
        display.drawn = placements
    }

    private func drawFigures(_ figures: FigureDisplay, session: ReaderSession) {
        lastFigureDisplay = figures
        guard let layout = session.state.layout, session.selection == nil else {
            takeFiguresAway(from: figures)
            return
        }
        let placements = FigureDisplay.placements(layout: layout, visibleLines: session.state.visibleLines,
                                                  screenRows: pictureArea.rows, leftMargin: session.column.leftMargin)
        for placement in placements { requestFigure(placement.request, figures: figures, session: session, wanted: Set(placements.map(\.request))) }
        if pageIsCovered {
            if !figures.pictureProtocol.isTextCells { takeFiguresAway(from: figures) }
            return
        }
        let ready = placements.filter { (try? figures.ready[$0.request]?.get()) != nil }
        if ready != figures.drawn {
            takeFiguresAway(from: figures)
        } else if !figures.drawn.isEmpty, !figures.pictureProtocol.isTextCells {
            return
        }
        guard !ready.isEmpty else { return }
        var sequence = figures.pictureProtocol == .kitty ? Self.kittyDeleteAll : ""
        for placement in ready {
            guard case .success(let picture)? = figures.ready[placement.request] else { continue }
            sequence += picture.placed(row: placement.row, column: placement.column)
        }
        screen.writeOverlay(sequence)
        figures.drawn = ready
    }

    /// A picture of the text alone, fitted to the window above the status line.
    private func drawFullImage(_ href: String, figures: FigureDisplay, session: ReaderSession) {
        lastFigureDisplay = figures
        let area = pictureArea
        guard let size = session.document?.pictureSizes[href] else { return }
        let cells = PictureGeometry.cells(pixelWidth: size.width, pixelHeight: size.height, columns: area.columns, rows: area.rows,
                                          cell: figures.renderer.output.cell)
        let request = FigureDisplay.Request(href: href, columns: cells.columns, rows: cells.rows, visible: 0..<cells.rows)
        requestFigure(request, figures: figures, session: session, wanted: [request])
        guard case .success(let picture)? = figures.ready[request] else { return }
        let placement = FigureDisplay.Placement(request: request, row: max(0, (area.rows - cells.rows) / 2),
                                                column: max(0, (area.columns - cells.columns) / 2))
        if figures.drawn != [placement] {
            takeFiguresAway(from: figures)
        } else if !figures.pictureProtocol.isTextCells {
            return
        }
        var sequence = figures.pictureProtocol == .kitty ? Self.kittyDeleteAll : ""
        sequence += picture.placed(row: placement.row, column: placement.column)
        screen.writeOverlay(sequence)
        figures.drawn = [placement]
    }

    /// Opens the first picture on the page alone (`i`); false when the page has none.
    func openImage(_ session: ReaderSession) -> Bool {
        guard session.figures != nil, let layout = session.state.layout, let document = session.document else { return false }
        guard let row = session.state.visibleLines.lazy.compactMap({ layout.lines[$0].picture }).first else { return false }
        let alt = document.images.first { $0.href == row.href }?.alt ?? ""
        overlays.append(.image(href: row.href, caption: alt))
        return true
    }

    private func requestFigure(_ request: FigureDisplay.Request, figures: FigureDisplay, session: ReaderSession, wanted: Set<FigureDisplay.Request>) {
        guard figures.ready[request] == nil, !figures.pending.contains(request) else { return }
        figures.pending.insert(request)
        let renderer = figures.renderer
        session.background.append(Task { @MainActor [weak self] in
            let result = await Blocking.run { () -> Result<TerminalPicture, PictureError> in
                do throws(PictureError) {
                    return .success(try renderer.render(href: request.href, columns: request.columns, rows: request.rows, visible: request.visible))
                } catch { return .failure(error) }
            }
            figures.pending.remove(request)
            guard let self, case .reader(let current) = self.page, current === session else { return }
            figures.store(result, for: request, keeping: wanted)
            self.render()
        })
    }

    /// Removes the figures drawn (a full repaint, kitty images deleted).
    func takeFiguresAway(from figures: FigureDisplay?) {
        guard let figures, !figures.drawn.isEmpty else { return }
        figures.drawn = []
        if figures.pictureProtocol == .kitty { screen.writeOverlay(Self.kittyDeleteAll) }
        screen.invalidate()
        screen.refresh()
    }

    /// How pictures are drawn in this terminal (the `images` setting, `LECTERN_IMAGES`, and
    /// what the terminal answered).
    var pictureOutput: PictureOutput {
        PictureOutput.resolve(setting: config.images, environment: ProcessInfo.processInfo.environment, answers: terminalAnswers)
    }

    /// Asks the terminal whether it draws sixel or kitty pictures and how large its cells are
    /// (pictures keep their proportions only with the real cell size). Not asked when pictures
    /// are off or drawn as symbols, whose cells are close enough to 1:2.
    func probeTerminalForPictures() {
        let environment = ProcessInfo.processInfo.environment
        let setting = environment["LECTERN_IMAGES"].flatMap { PictureSetting(rawValue: $0.lowercased()) } ?? config.images
        guard setting != .off, setting != .symbols, environment["TMUX"] == nil else { return }
        var answers = TerminalProbe.ask(TerminalAnswers.query, isComplete: { TerminalAnswers.parse($0) != nil })
            .flatMap(TerminalAnswers.parse) ?? TerminalAnswers()
        // The kernel's window size first: xterm does not answer the cell size query by default.
        if let cell = TerminalProbe.cellPixelSize() { answers.cellSize = CellSize(width: cell.width, height: cell.height) }
        terminalAnswers = answers
    }

    /// The figure display of a reflowable book, when pictures are on.
    func makeFigureDisplay(for publication: Publication) -> FigureDisplay? {
        guard !publication.isAudiobook, let renderer = FigureRenderer(publication: publication, output: pictureOutput) else { return nil }
        return FigureDisplay(renderer: renderer)
    }

    /// Removes what `display` drew: repaints the whole screen (the cells ncurses believes
    /// blank) and deletes kitty images.
    func takePicturesAway(from display: PictureDisplay?) {
        guard let display, !display.drawn.isEmpty else { return }
        display.drawn = []
        if display.pictureProtocol == .kitty { screen.writeOverlay(Self.kittyDeleteAll) }
        screen.invalidate()
        screen.refresh()
    }

    /// Forgets where pictures were (the screen was cleared: resize, Ctrl-L).
    func picturesInvalidated() {
        guard case .reader(let session) = page else { return }
        if let display = session.pictures {
            display.drawn = []
            display.forgetAll()
            requestPictures(session)
        }
        session.figures?.forgetAll()
    }

    static let kittyDeleteAll = "\u{1B}_Ga=d,d=A,q=2\u{1B}\\"
}
