import Bookshelf
import FoundationEssentials
import Pictures
import Shared
import Terminal

/// Pictures in the reader: how they are drawn in this terminal, and the one place that writes
/// them after ncurses has drawn the rest (pages: ReaderApp+PagePictures; figures in the text:
/// ReaderApp+Figures).
extension ReaderApp {
    /// The cells pictures are drawn in: the window above the status line.
    var pictureArea: (rows: Int, columns: Int) {
        let (rows, columns) = screen.size
        return (max(1, rows - 1), max(1, columns))
    }

    /// How pictures are drawn in this terminal (the `images` setting, `LECTERN_IMAGES`, what
    /// the terminal answered, and tmux, which carries only symbols). `lectern doctor` reports
    /// the same decision.
    var pictureOutput: PictureOutput {
        PictureOutput.forScreen(setting: config.images, environment: ProcessInfo.processInfo.environment, answers: terminalAnswers)
    }

    /// Asks the terminal whether it draws sixel or kitty pictures and how large its cells are
    /// (pictures keep their proportions only with the real cell size). Not asked when pictures
    /// are off or drawn as symbols, whose cells are close enough to 1:2.
    func probeTerminalForPictures() {
        // A protocol forced where tmux cannot carry it: say so once rather than show blank pages.
        if let note = pictureOutput.note { message = note }
        terminalAnswers = Self.askTerminalAboutPictures(setting: config.images, environment: ProcessInfo.processInfo.environment)
    }

    /// What the terminal answers about pictures, when the reader asks (`lectern doctor` asks
    /// the same way, to report what the reader will draw with); nil when it does not ask.
    public nonisolated static func askTerminalAboutPictures(setting: PictureSetting, environment: [String: String]) -> TerminalAnswers? {
        let setting = environment["LECTERN_IMAGES"].flatMap { PictureSetting(rawValue: $0.lowercased()) } ?? setting
        guard setting != .off, setting != .symbols, !PictureOutput.insideMultiplexer(environment) else { return nil }
        var answers = TerminalProbe.ask(TerminalAnswers.query, isComplete: { TerminalAnswers.parse($0) != nil })
            .flatMap(TerminalAnswers.parse) ?? TerminalAnswers()
        // The kernel's window size first: xterm does not answer the cell size query by default.
        if let cell = TerminalProbe.cellPixelSize() { answers.cellSize = CellSize(width: cell.width, height: cell.height) }
        return answers
    }

    /// Writes the pictures of the page shown, once ncurses has drawn everything else; or takes
    /// away pictures that should no longer be there.
    func drawPictures() {
        guard let book = currentBook, book.playback == nil else {
            takePicturesAway(from: lastPictureDisplay)
            takeFiguresAway(from: lastFigureDisplay)
            return
        }
        if let layer = overlays.last, let image = layer as? ImageScreen, let figures = book.figures {
            takePicturesAway(from: lastPictureDisplay)
            drawFullImage(image.href, figures: figures, book: book)
        } else if showsPicture(book), let display = book.pictures {
            takeFiguresAway(from: lastFigureDisplay)
            drawPage(display, book: book)
        } else if let figures = book.figures {
            takePicturesAway(from: lastPictureDisplay)
            drawFigures(figures, book: book)
        } else {
            takePicturesAway(from: lastPictureDisplay)
        }
    }

    /// Forgets where pictures were (the screen was cleared: resize, Ctrl-L).
    func picturesInvalidated() {
        guard let book = currentBook else { return }
        if let display = book.pictures {
            display.drawn = []
            display.forgetAll()
            requestPictures(book)
        }
        book.figures?.forgetAll()
    }
}
