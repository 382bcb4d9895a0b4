import Bookshelf
import FoundationEssentials
import Pictures
import Shared
import Terminal

/// A comic's or a PDF's pages as pictures: decoded off the main actor and read ahead, turned,
/// fitted, panned and shown in spreads.
extension ReaderApp {
    /// The picture display for `publication`, when it is read as pictures and pictures are on.
    func makePictureDisplay(for publication: Publication) -> PictureDisplay? {
        let comic = PicturePages(comic: publication)
        guard let pages = comic ?? PicturePages(pdf: publication) else { return nil }
        guard let renderer = PageRenderer(pages: pages, output: pictureOutput) else { return nil }
        return PictureDisplay(renderer: renderer, isPDF: comic == nil)
    }

    /// Whether `book` shows its page as a picture now.
    func showsPicture(_ book: BookController) -> Bool {
        book.pictures?.isOn == true && book.playback == nil
    }

    /// Asks for the page shown and its neighbours to be drawn, off the main actor.
    /// `page`: the page about to be shown, asked for while its chapter loads (default: the page shown).
    func requestPictures(_ book: BookController, page: Int? = nil) {
        guard let display = book.pictures, display.isOn else { return }
        let area = pictureArea
        let count = book.source.count
        let shown = display.requests(with: page ?? book.state.chapter, count: count, columns: area.columns, rows: area.rows)
        for request in shown { requestPicture(request, display: display, book: book) }
        // Read ahead: the next page (or spread) first, then the previous one, at their top.
        let pages = shown.map(\.page)
        for neighbour in [pages.max()! + 1, pages.min()! - 1] where neighbour >= 0 && neighbour < count {
            for var request in display.requests(with: neighbour, count: count, columns: area.columns, rows: area.rows) {
                request.panRow = 0
                requestPicture(request, display: display, book: book)
            }
        }
    }

    private func requestPicture(_ request: PageRequest, display: PictureDisplay, book: BookController) {
        guard display.result(for: request) == nil, !display.pending.contains(request) else { return }
        display.pending.insert(request)
        let renderer = display.renderer
        book.tasks.start(nil, computing: {
            await Blocking.run { () -> Result<RenderedPage, PictureError> in
                do throws(PictureError) { return .success(try renderer.render(request)) } catch { return .failure(error) }
            }
        }, then: { [weak self, weak book] result in
            display.pending.remove(request)
            guard let self, let book else { return }
            display.store(result, for: request, around: [book.state.chapter] + (book.loadingChapter.map { [$0] } ?? []))
            if display.pagesShown(with: book.state.chapter, count: book.source.count).contains(request.page) { self.render() }
        })
    }

    /// The actions that mean something else while a book's pages are shown as pictures
    /// (besides `togglePictures`, which switches them on and off): those of the switch below.
    static let pictureActions: Set<ReaderAction> = [.toggleSpread, .toggleFit, .pageDown, .pageUp, .pageRight, .pageLeft,
                                                    .lineDown, .lineUp, .halfPageDown, .halfPageUp]

    /// Handles a key that means something else for pictures; true when it did.
    @discardableResult
    func handlePictureAction(_ action: ReaderAction, count: Int?, book: BookController) -> Bool {
        guard let display = book.pictures else { return false }
        if action == .togglePictures {
            guard display.isPDF else { message = "This book's pages are pictures only."; return true }
            display.isOn.toggle()
            message = display.isOn ? "Page pictures" : "Page text"
            if display.isOn { requestPictures(book) }
            return true
        }
        guard display.isOn else { return false }
        let times = max(1, count ?? 1)
        let area = pictureArea
        let total = display.result(for: display.request(page: book.state.chapter, columns: area.columns, rows: area.rows))
            .flatMap { try? $0.get().totalRows } ?? area.rows
        let lastPan = max(0, total - area.rows)
        let rightToLeft = book.state.rightToLeft
        func turn(_ delta: Int) {
            let shown = display.pagesShown(with: book.state.chapter, count: book.source.count)
            var target = book.state.chapter + delta
            if shown.count > 1 || (display.spread && display.fit == .page) {
                target = delta > 0 ? shown.max()! + 1 : (display.pagesShown(with: shown.min()! - 1, count: book.source.count).min() ?? -1)
            }
            guard target >= 0, target < book.source.count else {
                message = delta > 0 ? "This is the last page." : "This is the first page."
                return
            }
            display.panRow = delta < 0 && display.fit == .width ? Int.max / 2 : 0
            load(book, chapter: target, anchor: .start)
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
        requestPictures(book)
        return true
    }

    func drawPage(_ display: PictureDisplay, book: BookController) {
        lastPictureDisplay = display
        let area = pictureArea
        let requests = display.requests(with: book.state.chapter, count: book.source.count, columns: area.columns, rows: area.rows)
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
        if book.state.rightToLeft { order.reverse() }
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
        var sequence = display.pictureProtocol.erasingSequence
        for (placement, (_, picture)) in zip(placements, order) {
            sequence += picture.placed(row: placement.row, column: placement.column)
        }
        screen.writeOverlay(sequence)
        display.drawn = placements
    }

    /// Removes what `display` drew: repaints the whole screen (the cells ncurses believes
    /// blank) and deletes kitty images.
    func takePicturesAway(from display: PictureDisplay?) {
        guard let display, !display.drawn.isEmpty else { return }
        display.drawn = []
        if !display.pictureProtocol.erasingSequence.isEmpty { screen.writeOverlay(display.pictureProtocol.erasingSequence) }
        screen.invalidate()
        screen.refresh()
    }
}
