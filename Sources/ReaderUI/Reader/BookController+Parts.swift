import Bookshelf
import FoundationEssentials
import Shared
import TextLayout

// The parts of an open book's state (#30): each holds what one concern of the reader changes,
// so that ``BookController`` keeps few stored properties and a reader of the code sees which
// state goes together. The controller's properties of the same names forward to them.

/// The chapter shown and the one being loaded (``BookController/loadChapter(_:at:then:)``).
struct ChapterLoadState {
    let loader: ContentDocumentLoader
    /// The document of the chapter shown.
    var document: TextDocument?
    var options: LayoutOptions
    var column: TextColumn
    /// The chapter being loaded, nil when none is.
    var loadingChapter: Int?
    /// The chapter shown from its first part while the rest of it is converted; nil once it
    /// is whole.
    var partialChapter: Int?
    /// A movement forward past the first part of the chapter shown in part (a page down, a
    /// line down, with its count): carried out when the rest arrives.
    var movementWaiting: (action: ReaderAction, count: Int)?
    /// An offset to show (a search match) past the first part of the chapter shown in part:
    /// shown when the rest arrives.
    var revealWaiting: Int?
    /// A place in the chapter shown in part that its first part cannot place (its end, a
    /// percentage past it): moved to when the rest arrives.
    var anchorWaiting: ReaderState.Anchor?
    /// The next chapter, read ahead in the background.
    var preloaded: (chapter: Int, document: TextDocument)?
    /// The checkpoints of each chapter as the library keeps them (written this opening).
    var keptCheckpoints: [Int: [ChapterCheckpoint]] = [:]
}

/// What the person does on the page: search, selection and copy, hints, highlights.
struct BookInteraction {
    var search: SearchState?
    /// The selection in progress (`v`), nil when not selecting.
    var selection: SelectionState?
    /// The part of a refused selection that the copy allowance left still takes, offered
    /// to the person (`y` copies it).
    var partialCopyOffer: String?
    /// Hint mode (`f`): the page's links and notes labelled, waiting for a label.
    var hints: HintMode?
    /// The book's highlights (#31), read from the library at the first page.
    var highlights = HighlightSet()
    /// An external link waiting for the person's yes before it is handed to `xdg-open`.
    var pendingExternalLink: String?
    /// Counts the selections started, so that a copy finishing late clears its own only.
    var selectionNumber = 0
    /// Whether copying is possible at all, and the characters left (nil: unlimited), as last
    /// asked; nil while asking.
    var copyPermission: (allowed: Bool, left: Int?)?
}

/// The table of contents and page list placed in the reading order, and the jumps.
struct BookNavigation {
    /// The table of contents, looked up by chapter: empty until it is read after the first
    /// page (``ReaderApp/readTableOfContents(_:)``).
    var contents = TableOfContentsIndex.empty
    /// The contents entries placed in the reading order (``ContentsSections``).
    var sections = ContentsSections.empty
    /// The page list placed in the reading order (``BookController/printedPage``).
    var printedPages = ContentsSections.empty
    /// Where the anchors of the contents entries lie in chapters converted so far: offsets by
    /// fragment, by chapter (``BookController/sectionTitle(chapter:offset:)``).
    var entryOffsets: [Int: [String: Int]] = [:]
    /// Where the person was before each jump, for going back and forward.
    var jumps = JumpList()
}

/// The book in the library: its entry, and the place saved there and synced.
struct BookRecord {
    /// The library row (positions, bookmarks); nil when the library cannot be written.
    var entry: LibraryEntry?
    /// The content identity (``ContentIdentity``) once known.
    var identity: String?
    /// The file.
    var path = ""
    /// Whether the library entry of a book opened from outside the library is being made.
    var entryRequested = false
    /// The adding of that entry: writes that need it wait for it.
    var entryAdding: Task<Void, Never>?
    /// The opening's look-up of the book's identity and library entry (its saved place).
    var identityLookup: Task<Void, Never>?
    /// The position saved when the book was last closed: where playback resumes.
    var resumeLocator: Locator?
    /// The locator last handed to the library (JSON): an unmoved page is not written again.
    var savedLocator: String?
    /// When the playing position was last saved (it moves continuously: saved every few seconds).
    var lastAudioSave = Date.distantPast
    /// Another device's newer place, offered with a y/n on the status line (progress sync).
    var syncOffer: ReaderProgressSync.Offer?
    /// The page last pushed to the progress sync server (``ReaderApp/syncKey(_:)``).
    var syncPushedLocator: String?
}

/// The book-wide pass after the first page: every chapter's text, and the reading pace.
struct BookWidePass {
    /// Every chapter's text prepared for search, filled in the background after the first page.
    var textIndex: BookTextIndex
    /// Whether the first page has been drawn (the book-wide pass waits for it).
    var firstPaintDone = false
    /// The person's reading speed (from every book, then this session's page turns).
    var pace = ReadingPace()
    /// What the pace held from other sessions: this session's share is the rest.
    var paceBefore: (seconds: TimeInterval, characters: Int) = (0, 0)
}

/// What shows the book other than text: page pictures, figures, audio playback.
struct BookDisplays {
    /// The audiobook's playback, when the engine is there (made on the first audio key).
    var playback: (any AudiobookPlaybackController)?
    /// The pages as pictures (a comic, a PDF), when pictures are on.
    var pictures: PictureDisplay?
    /// The images of the text drawn as pictures (a reflowable book), when pictures are on.
    var figures: FigureDisplay?
}

extension BookController {
    var loader: ContentDocumentLoader { chapters.loader }
    var document: TextDocument? { get { chapters.document } _modify { yield &chapters.document } }
    var options: LayoutOptions { get { chapters.options } _modify { yield &chapters.options } }
    var column: TextColumn { get { chapters.column } _modify { yield &chapters.column } }
    var loadingChapter: Int? { get { chapters.loadingChapter } _modify { yield &chapters.loadingChapter } }
    var partialChapter: Int? { get { chapters.partialChapter } _modify { yield &chapters.partialChapter } }
    var movementWaiting: (action: ReaderAction, count: Int)? {
        get { chapters.movementWaiting }
        _modify { yield &chapters.movementWaiting }
    }
    var revealWaiting: Int? { get { chapters.revealWaiting } _modify { yield &chapters.revealWaiting } }
    var anchorWaiting: ReaderState.Anchor? { get { chapters.anchorWaiting } _modify { yield &chapters.anchorWaiting } }
    var preloaded: (chapter: Int, document: TextDocument)? {
        get { chapters.preloaded }
        _modify { yield &chapters.preloaded }
    }
    var keptCheckpoints: [Int: [ChapterCheckpoint]] { get { chapters.keptCheckpoints } _modify { yield &chapters.keptCheckpoints } }

    var search: SearchState? { get { interaction.search } _modify { yield &interaction.search } }
    var selection: SelectionState? { get { interaction.selection } _modify { yield &interaction.selection } }
    var partialCopyOffer: String? { get { interaction.partialCopyOffer } _modify { yield &interaction.partialCopyOffer } }
    var hints: HintMode? { get { interaction.hints } _modify { yield &interaction.hints } }
    var highlights: HighlightSet { get { interaction.highlights } _modify { yield &interaction.highlights } }
    var pendingExternalLink: String? { get { interaction.pendingExternalLink } _modify { yield &interaction.pendingExternalLink } }
    var selectionNumber: Int { get { interaction.selectionNumber } _modify { yield &interaction.selectionNumber } }
    var copyPermission: (allowed: Bool, left: Int?)? {
        get { interaction.copyPermission }
        _modify { yield &interaction.copyPermission }
    }

    /// The table of contents; setting it places its entries and the page list in the
    /// reading order anew.
    var contents: TableOfContentsIndex {
        get { navigation.contents }
        set {
            navigation.contents = newValue
            navigation.sections = Self.sections(of: newValue, source: source)
            // Read with the contents (the same navigation document).
            navigation.printedPages = Self.printedPages(of: publication, source: source)
            // Offsets noted before the contents were read are of no entries.
            navigation.entryOffsets = [:]
        }
    }
    /// Titles from the table of contents, by resource path.
    var chapterTitles: [String: String] { contents.chapterTitles }
    var sections: ContentsSections { navigation.sections }
    var printedPages: ContentsSections { navigation.printedPages }
    var entryOffsets: [Int: [String: Int]] { get { navigation.entryOffsets } _modify { yield &navigation.entryOffsets } }
    var jumps: JumpList { get { navigation.jumps } _modify { yield &navigation.jumps } }

    var entry: LibraryEntry? { get { record.entry } _modify { yield &record.entry } }
    var identity: String? { get { record.identity } _modify { yield &record.identity } }
    var path: String { get { record.path } _modify { yield &record.path } }
    var entryRequested: Bool { get { record.entryRequested } _modify { yield &record.entryRequested } }
    var entryAdding: Task<Void, Never>? { get { record.entryAdding } _modify { yield &record.entryAdding } }
    var identityLookup: Task<Void, Never>? { get { record.identityLookup } _modify { yield &record.identityLookup } }
    var resumeLocator: Locator? { get { record.resumeLocator } _modify { yield &record.resumeLocator } }
    var savedLocator: String? { get { record.savedLocator } _modify { yield &record.savedLocator } }
    var lastAudioSave: Date { get { record.lastAudioSave } _modify { yield &record.lastAudioSave } }
    var syncOffer: ReaderProgressSync.Offer? { get { record.syncOffer } _modify { yield &record.syncOffer } }
    var syncPushedLocator: String? { get { record.syncPushedLocator } _modify { yield &record.syncPushedLocator } }

    var textIndex: BookTextIndex { get { pass.textIndex } _modify { yield &pass.textIndex } }
    var firstPaintDone: Bool { get { pass.firstPaintDone } _modify { yield &pass.firstPaintDone } }
    var pace: ReadingPace { get { pass.pace } _modify { yield &pass.pace } }
    var paceBefore: (seconds: TimeInterval, characters: Int) {
        get { pass.paceBefore }
        _modify { yield &pass.paceBefore }
    }

    var playback: (any AudiobookPlaybackController)? { get { displays.playback } _modify { yield &displays.playback } }
    var pictures: PictureDisplay? { get { displays.pictures } _modify { yield &displays.pictures } }
    var figures: FigureDisplay? { get { displays.figures } _modify { yield &displays.figures } }
}
