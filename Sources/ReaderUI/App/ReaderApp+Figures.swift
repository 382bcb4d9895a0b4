import Bookshelf
import FoundationEssentials
import Pictures
import Shared
import Terminal
import TextLayout

/// The images of a reflowable book drawn in the rows the layout left for them, and alone as
/// large as the window (`i`).
extension ReaderApp {
    /// The figure display of a reflowable book, when pictures are on.
    func makeFigureDisplay(for publication: Publication) -> FigureDisplay? {
        guard !publication.isAudiobook, let renderer = FigureRenderer(publication: publication, output: pictureOutput) else { return nil }
        return FigureDisplay(renderer: renderer)
    }

    func drawFigures(_ figures: FigureDisplay, book: BookController) {
        lastFigureDisplay = figures
        guard let layout = book.state.layout, book.selection == nil else {
            takeFiguresAway(from: figures)
            return
        }
        warmUpPicturesForFigures(near: book, layout: layout)
        let placements = FigureDisplay.placements(layout: layout, visibleLines: book.state.visibleLines,
                                                  screenRows: pictureArea.rows, leftMargin: book.column.leftMargin)
        for placement in placements { requestFigure(placement.request, figures: figures, book: book, wanted: Set(placements.map(\.request))) }
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
        var sequence = figures.pictureProtocol.erasingSequence
        for placement in ready {
            guard case .success(let picture)? = figures.ready[placement.request] else { continue }
            sequence += picture.placed(row: placement.row, column: placement.column)
        }
        screen.writeOverlay(sequence)
        figures.drawn = ready
    }

    /// A picture of the text alone, fitted to the window above the status line.
    func drawFullImage(_ href: String, figures: FigureDisplay, book: BookController) {
        lastFigureDisplay = figures
        let area = pictureArea
        guard let size = book.document?.pictureSizes[href] else { return }
        let cells = PictureGeometry.cells(pixelWidth: size.width, pixelHeight: size.height, columns: area.columns, rows: area.rows,
                                          cell: figures.renderer.output.cell)
        let request = FigureDisplay.Request(href: href, columns: cells.columns, rows: cells.rows, visible: 0..<cells.rows)
        requestFigure(request, figures: figures, book: book, wanted: [request])
        guard case .success(let picture)? = figures.ready[request] else { return }
        let placement = FigureDisplay.Placement(request: request, row: max(0, (area.rows - cells.rows) / 2),
                                                column: max(0, (area.columns - cells.columns) / 2))
        if figures.drawn != [placement] {
            takeFiguresAway(from: figures)
        } else if !figures.pictureProtocol.isTextCells {
            return
        }
        var sequence = figures.pictureProtocol.erasingSequence
        sequence += picture.placed(row: placement.row, column: placement.column)
        screen.writeOverlay(sequence)
        figures.drawn = [placement]
    }

    /// Opens the first picture on the page alone (`i`); false when the page has none.
    func openImage(_ book: BookController) -> Bool {
        guard book.figures != nil, let layout = book.state.layout, let document = book.document else { return false }
        guard let row = book.state.visibleLines.lazy.compactMap({ layout.lines[$0].picture }).first else { return false }
        let alt = document.images.first { $0.href == row.href }?.alt ?? ""
        overlays.append(ImageScreen(href: row.href, caption: alt))
        return true
    }

    private func requestFigure(_ request: FigureDisplay.Request, figures: FigureDisplay, book: BookController, wanted: Set<FigureDisplay.Request>) {
        guard figures.ready[request] == nil, !figures.pending.contains(request) else { return }
        figures.pending.insert(request)
        let renderer = figures.renderer
        book.tasks.start(nil, computing: {
            await Blocking.run { () -> Result<TerminalPicture, PictureError> in
                do throws(PictureError) {
                    return .success(try renderer.render(href: request.href, columns: request.columns, rows: request.rows, visible: request.visible))
                } catch { return .failure(error) }
            }
        }, then: { [weak self] result in
            figures.pending.remove(request)
            figures.store(result, for: request, keeping: wanted)
            self?.render()
        })
    }

    /// Removes the figures drawn (a full repaint, kitty images deleted).
    func takeFiguresAway(from figures: FigureDisplay?) {
        guard let figures, !figures.drawn.isEmpty else { return }
        figures.drawn = []
        if !figures.pictureProtocol.erasingSequence.isEmpty { screen.writeOverlay(figures.pictureProtocol.erasingSequence) }
        screen.invalidate()
        screen.refresh()
    }
}
