import Bookshelf
import Terminal

/// The interface run in-process on a canvas of the caller's (``MemoryCanvas``): no terminal,
/// no input thread, no signal handlers. The caller hands keys one at a time and reads what the
/// canvas shows; work started by a key (opening, the passphrase check, layout) finishes on the
/// main actor as it does in the terminal, so the caller waits for what it expects to see.
extension ReaderApp {
    /// Shows the bookshelf on `canvas`.
    public func startBookshelf(on canvas: any Canvas) {
        start(on: canvas) { app in app.showShelf() }
    }

    /// Opens `path` in the reader on `canvas` (closing it quits, as `lectern open` does).
    public func startReader(path: String, on canvas: any Canvas) {
        quitsWithReader = true
        start(on: canvas) { app in app.openPublication(path: LibraryImporter.absolutePath(path), entry: nil) }
    }

    /// Handles `key` as if typed, then draws.
    public func press(_ key: Key) {
        if key == .resize || !isQuitting {
            handle(key)
            settleShelfGrid()
        }
        render()
    }

    /// Draws again (a test waiting for a task's result calls it between two looks).
    public func redraw() { render() }

    private func start(on canvas: any Canvas, _ start: (ReaderApp) -> Void) {
        screen = canvas
        isRunning = true
        fitPageToWindow()
        applyTheme(named: config.themeName)
        if let summary = ReaderConfig.warningSummary(config.warnings) { message = summary }
        start(self)
        render()
    }
}
