import Pictures
import Bookshelf
import FoundationEssentials
import Shared
import Terminal
import TextLayout
#if canImport(Glibc)
import Glibc
#endif

/// The terminal application: the bookshelf, the reader and their popups, on the main actor
/// (the only place ncurses is called, through ``TerminalScreen``).
///
/// Keys arrive through an ``InputWatcher`` thread that wakes the main actor; everything slow
/// (opening, decryption, parsing, layout, the library database, the book-wide counts and
/// searches) runs in tasks on Dispatch threads (``Blocking``) and comes back to the main
/// actor to be shown, so the interface never waits on a large book or a slow server.
@MainActor
public final class ReaderApp {
    /// What the application is given by the executable (its composition root).
    public struct Dependencies: Sendable {
        /// The library, nil when its database cannot be opened (then nothing is remembered).
        /// Every read and write of the interface goes through it, in order.
        public var library: Library?
        public var open: PublicationOpening
        public var config: ReaderConfig
        /// The audio playback engine for audiobooks (see ``AudiobookPlaybackController``);
        /// nil: audiobooks show their tracks and contents, without playback.
        public var makeAudiobookPlayback: AudiobookPlaybackFactory?
        /// LCP license details, renew, return and acquisition; nil without LCP.
        public var licenses: LicenseServices?
        /// The state of LCP loans for the bookshelf's loan column; nil without LCP.
        public var loanStates: LoanStateSource?
        /// Serves a publication to a browser (`o`); nil: the key says it is not available.
        public var browserServing: BrowserServing?
        /// The saved OPDS catalogs and their sessions (`c`); nil: the key says catalogs are not available.
        public var catalogs: CatalogServices?
        /// Each book's highlights and notes in the library (nil: kept until the book closes).
        public var annotations: AnnotationStoreFactory?
        /// KOReader progress sync (#32); nil: the place stays in this library.
        public var progressSync: ReaderProgressSync?
        /// The clock, the cache folder and the refresh interval (``Settings``); tests give their own.
        public var settings = Settings()

        public init(library: Library?, open: @escaping PublicationOpening, config: ReaderConfig,
                    makeAudiobookPlayback: AudiobookPlaybackFactory? = nil) {
            self.library = library
            self.open = open
            self.config = config
            self.makeAudiobookPlayback = makeAudiobookPlayback
        }
    }

    enum Page {
        case shelf
        /// The bookshelf's Catalogs view (`c`): its state is the screen's.
        case catalogs(CatalogsScreen)
        case opening(String)
        /// The open book's page: its keys and drawing are the screen's.
        case reader(ReaderScreen)
        case restricted(RestrictedInfo, retry: (path: String, entry: LibraryEntry?))
        case failure(title: String, message: String)
    }


    let dependencies: Dependencies
    var config: ReaderConfig
    var screen: (any Canvas)!
    var page: Page = .shelf
    /// The focus stack: the layers over the page (every popup and dialog is a ``Screen``,
    /// #30); the top one takes the keys.
    var overlays: [any Screen] = []
    /// The bookshelf's screen, the bottom of the focus stack: it stays under the catalogs and
    /// the book (nil until the shelf is first shown; `lectern open` never shows it).
    var bookshelf: ShelfScreen?
    /// A line for the status bar, cleared by the next key.
    var message: String?
    // The rest in cohesive parts (ReaderApp+Parts.swift); properties of the same names forward.
    /// The palette and what draws pictures.
    var display = AppDisplay()
    /// The opening in progress: what it remembers.
    var opening = OpeningSession()
    /// Work in the background: opening, downloading, indexing, catalog sessions.
    var background = BackgroundWork()
    /// The run loop: the input watcher, and how the program ends.
    var loop = RunLoopState()
    /// The status the program ends with, once it quit.
    public var exitStatus: Int32 { loop.exitStatus }
    /// Whether the person quit (the run loop ends after the current key).
    public var isQuitting: Bool { !isRunning && screen != nil }

    public init(dependencies: Dependencies) {
        self.dependencies = dependencies
        config = dependencies.config
        // Interface strings follow the page text's bidi setting (see TextFitting.visual).
        TextFitting.terminalReorders.store(config.bidi == .terminal, ordering: .relaxed)
    }

    // MARK: - Running

    /// Shows the bookshelf until the person quits; returns the exit status.
    public func runBookshelf() async -> Int32 {
        await run { app in
            app.showShelf()
            app.indexLibraryInBackground()
        }
    }

    /// Opens `path` in the reader, and quits when it is closed.
    public func runReader(path: String) async -> Int32 {
        quitsWithReader = true
        return await run { app in app.openPublication(path: LibraryImporter.absolutePath(path), entry: nil) }
    }

    private func run(_ start: @escaping (ReaderApp) -> Void) async -> Int32 {
        probeTerminalForPictures()
        do {
            screen = try TerminalScreen()
        } catch {
            Self.printError(error.description)
            return 2
        }
        // A clipboard tool or `lp` that exits early must not end the reader.
        signal(SIGPIPE, SIG_IGN)
        applyTheme(named: config.themeName)
        if let summary = ReaderConfig.warningSummary(config.warnings) { message = summary }
        let watcher = InputWatcher()
        loop.watcher = watcher
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.finished = continuation
            isRunning = true
            watchSignals()
            fitPageToWindow()
            start(self)
            render()
            watcher.start(onReady: { Task { @MainActor [weak self] in self?.drainInput() } },
                          onHangUp: { Task { @MainActor [weak self] in self?.received(SIGHUP) } })
        }
        screen.stop()
        return exitStatus
    }

    /// Ends the program after the current key.
    func quit(status: Int32 = 0) {
        loop.exitStatus = status
        indexing?.cancel.cancel()
        if let book = currentBook { closeReader(book, thenShelf: false) }
        isRunning = false
        guard let continuation = loop.finished else { return }
        loop.finished = nil
        // A note the status line called saved is in the library before the program ends. The
        // main actor stays free meanwhile: a write may need it (the book's entry).
        let writes = annotationWrites, timeout = Self.annotationWriteWaitOnQuit
        Task { @MainActor in
            if await !Blocking.run({ writes.waitUntilWritten(timeout: timeout) }) {
                Self.printError("highlights or notes were still being written to the library as the program ended; the last ones may be missing")
            }
            continuation.resume()
        }
    }

    /// How long quitting waits for highlights and notes to reach the library: local writes,
    /// normally milliseconds; long enough for a loaded machine or a slow disk.
    static let annotationWriteWaitOnQuit: Duration = .seconds(30)

    static func printError(_ text: String) {
        let bytes = Array("lectern: \(text)\n".utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    // MARK: - Input

    /// Handles every key waiting; `acknowledging` tells the input watcher (which called it
    /// because input was ready) that it may wait again — not when a signal called it.
    func drainInput(acknowledging: Bool = true) {
        guard isRunning else { return }
        var any = false
        while isRunning, let key = screen.readKey() {
            any = true
            handle(key)
            settleShelfGrid()
        }
        if any, isRunning {
            render()
            scheduleSavingPosition()
        }
        if acknowledging { loop.watcher?.acknowledge() }
    }

    func handle(_ key: Key) {
        fitPageToWindow()
        if key == .resize {
            screen.invalidate()
            picturesInvalidated()
            shelfCoversInvalidated()
            windowResized()
            return
        }
        if key == .control("l") { screen.invalidate(); picturesInvalidated(); shelfCoversInvalidated() }
        // Raw mode delivers Ctrl-Z as a key, not as SIGTSTP.
        if key == .control("z") { suspend(); return }
        if !overlays.isEmpty, handleOverlay(key) { return }
        message = nil
        switch page {
        case .shelf:
            guard var shelfScreen = bookshelf else { return }
            let effects = shelfScreen.handle(key, size: screen.size)
            bookshelf = shelfScreen
            perform(effects)
        case .catalogs(var catalogs):
            let effects = catalogs.handle(key, size: screen.size)
            page = .catalogs(catalogs)
            perform(effects)
        case .opening(let title):
            var opening = OpeningScreen(title: title)
            perform(opening.handle(key, size: screen.size))
        case .reader(let reader): perform(reader.handle(key, size: screen.size))
        case .restricted(let info, let retry):
            var restricted = RestrictedScreen(info: info, retry: retry)
            perform(restricted.handle(key, size: screen.size))
        case .failure(let title, let text):
            var failure = FailureScreen(title: title, message: text)
            perform(failure.handle(key, size: screen.size))
        }
    }

    /// Asks for a password or passphrase (the `onAskCredentials` of the opener and of LCP).
    func askCredentials(_ request: CredentialsRequest) async -> String? {
        // A dialog still open for an earlier question is answered "cancelled".
        topmost(PassphraseScreen.self)?.screen.reply.answer(nil)
        removeScreens(PassphraseScreen.self)
        // The protection knows the file name only: show the title the library knows.
        var request = request
        if case .opening(let title) = page, !title.isEmpty { request.title = title }
        return await withCheckedContinuation { continuation in
            overlays.append(PassphraseScreen(state: PassphraseDialogState(request: request), reply: CredentialsReply(continuation)))
            render()
        }
    }

    /// The page's lists follow the window: their rows are worked out when a key or a resize is
    /// handled (and when the interface starts), never while drawing, which works on a copy.
    func fitPageToWindow() {
        guard let screen else { return }
        let rows = screen.size.rows
        shelf.list.visibleRows = ShelfView.listRows(windowRows: rows)
        updateCatalogs { $0.state.visibleRows = CatalogsView.listRows(windowRows: rows) }
    }

    func windowResized() {
        fitPageToWindow()
        if let book = currentBook { relayout(book) }
    }

    // MARK: - Theme

    func applyTheme(named name: String) {
        var warnings: [String] = []
        let theme = ReaderConfig.theme(named: name, warnings: &warnings) ?? ReaderConfig.theme(named: "default", warnings: &warnings) ?? .plain
        palette = theme.palette(colorCount: screen.colorCount)
        config.themeName = theme.name
        if let summary = ReaderConfig.warningSummary(warnings) { message = summary }
    }

    func nextTheme() {
        let name = ReaderConfig.nextThemeName(after: config.themeName)
        applyTheme(named: name)
        message = "Theme: \(name)"
        Task { @MainActor [weak self] in
            let failure = await Blocking.run { () -> String? in
                do { try ReaderConfig.saveTheme(name) } catch { return "\(error)" }
                return nil
            }
            guard let failure, let self else { return }
            Self.log.warning("saving the theme \(name) failed: \(failure)")
            self.message = "Could not save the theme: \(failure)"
            self.render()
        }
    }

    // MARK: - Drawing

    func render() {
        guard let screen, isRunning else { return }
        screen.clear(style: palette[.text])
        let painter = Painter(screen: screen, palette: palette)
        let (rows, columns) = screen.size
        guard rows >= 3, columns >= 10 else {
            painter.text("Window too small", row: 0, column: 0, .error)
            screen.refresh()
            return
        }
        switch page {
        case .shelf:
            bookshelf?.draw(into: painter)
        case .catalogs(let catalogs):
            catalogs.draw(into: painter)
        case .opening(let title):
            OpeningScreen(title: title).draw(into: painter)
        case .reader(let reader):
            var prompt: PromptState?
            if let shown = overlays.last as? PromptScreen { prompt = shown.state }
            reader.draw(into: painter, prompt: prompt, message: message)
        case .restricted(let info, let retry):
            RestrictedScreen(info: info, retry: retry).draw(into: painter)
        case .failure(let title, let text):
            FailureScreen(title: title, message: text).draw(into: painter)
        }
        for layer in overlays { layer.draw(into: painter) }
        if case .shelf = page, !pageIsCovered, message != nil {
            painter.bar(message!, row: rows - 1, .status)
        }
        if let top = overlays.last, top.placesCursor {
            // Where text is typed (the passphrase, the reader's prompt): drawing put the cursor.
        } else if case .shelf = page, bookshelf?.placesCursor == true {
        } else if case .catalogs(let catalogs) = page, catalogs.placesCursor {
        } else if let layer = overlays.last, let cursor = layer.cursor {
            screen.setCursor(row: cursor.row, column: cursor.column)
        } else {
            screen.setCursor(row: nil)
        }
        screen.refresh()
        drawPictures()
        // After the reader's pictures, which take theirs away with a full repaint.
        drawShelfCover()
    }
}
