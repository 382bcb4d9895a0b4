import Bookshelf
import FoundationEssentials
import Shared
import Pictures
import Terminal

// The parts of the application's state (#30): each holds what one concern changes, so that
// ``ReaderApp`` keeps few stored properties. The properties of the same names forward to them.

extension ReaderApp.Dependencies {
    /// What the interface is given beside its services: tests give their own.
    public struct Settings: Sendable {
        /// The time for the reading pace.
        public var clock: any ReadingClock = SystemReadingClock()
        /// Where caches go (the text of unprotected books for search): `$XDG_CACHE_HOME/lectern`.
        public var cacheFolder: String = XDGDirectories.cache
        /// How often an open book's highlights are read again, merged with the sync folder
        /// first (#32); nil: only when the book opens.
        public var annotationRefreshInterval: Duration?

        public init() {}
    }

    /// The time for the reading pace (tests give their own).
    public var clock: any ReadingClock {
        get { settings.clock }
        _modify { yield &settings.clock }
    }

    /// Where caches go (the text of unprotected books for search): `$XDG_CACHE_HOME/lectern`
    /// (tests give their own).
    public var cacheFolder: String {
        get { settings.cacheFolder }
        _modify { yield &settings.cacheFolder }
    }

    /// How often an open book's highlights are read again, merged with the sync folder first
    /// (#32); nil: only when the book opens.
    public var annotationRefreshInterval: Duration? {
        get { settings.annotationRefreshInterval }
        _modify { yield &settings.annotationRefreshInterval }
    }
}

/// The palette and what draws pictures on the terminal.
@MainActor
struct AppDisplay {
    var palette = Theme.plain.palette(colorCount: 0)
    /// The bookshelf's covers (``ReaderApp/drawShelfCover()``), made on first use.
    var shelfCovers: ShelfCoverDisplay?
    /// Whether the picture libraries were started.
    var picturesWarmedUp = false
    /// The picture display that drew last, to take its picture away when another page shows.
    var lastPictureDisplay: PictureDisplay?
    /// The figure display that drew last.
    var lastFigureDisplay: FigureDisplay?
    /// What the terminal said about its graphics (asked once, before the screen is set up).
    var terminalAnswers: TerminalAnswers?
}

/// The opening in progress: what this opening remembers (its passphrase dialog is a layer).
@MainActor
struct OpeningSession {
    /// Whether the last passphrase dialog was cancelled (the restricted screen says so).
    var credentialsCancelled = false
    /// Whether this opening already tried the remembered ZIP password.
    var rememberedPasswordOffered = false
    /// Whether quitting the reader quits the program (`lectern open PATH`).
    var quitsWithReader = false
}

/// Work of the application in the background.
@MainActor
struct BackgroundWork {
    var openTask: Task<Void, Never>?
    /// Cancels the download in progress.
    var acquisitionCancel: CancellationFlag?
    /// The library's full-text indexing in the background, and what stops it.
    var indexing: (task: Task<Void, Never>, cancel: CancellationFlag)?
    /// The session of each catalog visited since the Catalogs view was opened.
    var catalogConnections: [String: CatalogServices.Connection] = [:]
    /// The highlights and notes being written to the library, in order; quitting waits for them.
    let annotationWrites = AnnotationWrites()
}

/// The run loop's own state.
@MainActor
struct RunLoopState {
    var watcher: InputWatcher?
    var finished: CheckedContinuation<Void, Never>?
    /// Whether the interface runs (set up and not quit): nothing is drawn or handled after.
    var isRunning = false
    /// The status the program ends with, once it quit.
    var exitStatus: Int32 = 0
}

extension ReaderApp {
    var palette: ThemePalette { get { display.palette } _modify { yield &display.palette } }
    var shelfCovers: ShelfCoverDisplay? { get { display.shelfCovers } _modify { yield &display.shelfCovers } }
    var picturesWarmedUp: Bool { get { display.picturesWarmedUp } _modify { yield &display.picturesWarmedUp } }
    var lastPictureDisplay: PictureDisplay? {
        get { display.lastPictureDisplay }
        _modify { yield &display.lastPictureDisplay }
    }
    var lastFigureDisplay: FigureDisplay? { get { display.lastFigureDisplay } _modify { yield &display.lastFigureDisplay } }
    var terminalAnswers: TerminalAnswers? { get { display.terminalAnswers } _modify { yield &display.terminalAnswers } }
    var credentialsCancelled: Bool { get { opening.credentialsCancelled } _modify { yield &opening.credentialsCancelled } }
    var rememberedPasswordOffered: Bool {
        get { opening.rememberedPasswordOffered }
        _modify { yield &opening.rememberedPasswordOffered }
    }
    var quitsWithReader: Bool { get { opening.quitsWithReader } _modify { yield &opening.quitsWithReader } }

    var openTask: Task<Void, Never>? { get { background.openTask } _modify { yield &background.openTask } }
    var acquisitionCancel: CancellationFlag? {
        get { background.acquisitionCancel }
        _modify { yield &background.acquisitionCancel }
    }
    var indexing: (task: Task<Void, Never>, cancel: CancellationFlag)? {
        get { background.indexing }
        _modify { yield &background.indexing }
    }
    var catalogConnections: [String: CatalogServices.Connection] {
        get { background.catalogConnections }
        _modify { yield &background.catalogConnections }
    }

    var annotationWrites: AnnotationWrites { background.annotationWrites }

    /// Whether the interface runs (set up and not quit): nothing is drawn or handled after.
    var isRunning: Bool { get { loop.isRunning } _modify { yield &loop.isRunning } }
}
