import Bookshelf
import FoundationEssentials
import Shared
import TextLayout

/// An open book in the reader: the publication, its library entry, the chapter on screen
/// (its document, kept to lay it out again on resize) and the work running for it.
@MainActor
final class ReaderSession {
    let opened: OpenedPublication
    var publication: Publication { opened.publication }
    /// The library row (positions, bookmarks); nil when the library cannot be written.
    var entry: LibraryEntry?
    /// The content identity (``ContentIdentity``) once known.
    var identity: String?
    /// The file.
    var path = ""
    let loader: ContentDocumentLoader
    /// The chapters: reading-order documents, or a PDF's pages.
    let source: ChapterSource
    var state: ReaderState
    /// The document of the chapter shown.
    var document: TextDocument?
    var options: LayoutOptions
    var column: TextColumn
    var search: SearchState?
    /// The selection in progress (`v`), nil when not selecting.
    var selection: SelectionState?
    /// The part of a refused selection that the copy allowance left still takes, offered
    /// to the person (`y` copies it).
    var partialCopyOffer: String?
    /// Hint mode (`f`): the page's links and notes labelled, waiting for a label.
    var hints: HintMode?
    /// An external link waiting for the person's yes before it is handed to `xdg-open`.
    var pendingExternalLink: String?
    /// Where the person was before each jump, for going back and forward.
    var jumps = JumpList()
    /// The audiobook's playback, when the engine is there (made on the first audio key).
    var playback: (any AudiobookPlaybackController)?
    /// The position saved when the book was last closed: where playback resumes.
    var resumeLocator: Locator?
    /// When the playing position was last saved (it moves continuously: saved every few seconds).
    var lastAudioSave = Date.distantPast
    /// Counts the selections started, so that a copy finishing late clears its own only.
    var selectionNumber = 0
    /// Whether copying is possible at all, and the characters left (nil: unlimited), as last
    /// asked; nil while asking.
    var copyPermission: (allowed: Bool, left: Int?)?
    var searchTask: Task<Void, Never>?
    /// Every chapter's text prepared for search, filled in the background after the first page.
    var textIndex: BookTextIndex
    /// A chapter being loaded (a newer request cancels it).
    var loading: Task<Void, Never>?
    var loadingChapter: Int?
    /// The chapter shown from its first part while the rest of it is converted (see
    /// ``ReaderApp/load(_:chapter:anchor:)``); nil once it is whole.
    var partialChapter: Int?
    /// Whether a page down waits for the rest of the chapter shown in part.
    var pageDownWaiting = false
    /// Whether the library entry of a book opened from outside the library is being made.
    var entryRequested = false
    var relayoutGeneration = 0
    /// The next chapter, read ahead in the background.
    var preloaded: (chapter: Int, document: TextDocument)?
    var background: [Task<Void, Never>] = []
    /// The table of contents, looked up by chapter: empty until it is read after the first
    /// page (``ReaderApp/readTableOfContents(_:)``).
    var contents = TableOfContentsIndex.empty
    /// Titles from the table of contents, by resource path.
    var chapterTitles: [String: String] { contents.chapterTitles }
    /// The person's reading speed (from every book, then this session's page turns).
    var pace = ReadingPace()
    /// What the pace held from other sessions: this session's share is the rest.
    var paceBefore: (seconds: TimeInterval, characters: Int) = (0, 0)
    /// The pages as pictures (a comic, a PDF), when pictures are on.
    var pictures: PictureDisplay?
    /// The images of the text drawn as pictures (a reflowable book), when pictures are on.
    var figures: FigureDisplay?
    /// Whether the first page has been drawn (the book-wide pass waits for it).
    var firstPaintDone = false

    init(opened: OpenedPublication, entry: LibraryEntry?, options: LayoutOptions, column: TextColumn, rows: Int,
         measuresPictures: Bool = false) {
        self.opened = opened
        self.entry = entry
        loader = ContentDocumentLoader(publication: opened.publication)
        source = ChapterSource(publication: opened.publication, measuresPictures: measuresPictures)
        textIndex = BookTextIndex(chapterCount: source.count)
        self.options = options
        self.column = column
        let publication = opened.publication
        state = ReaderState(chapterCount: source.count,
                            rightToLeft: publication.metadata.readingProgression == .rtl, rows: rows)
        // Known without reading anything (a PDF's outline, a manifest's `toc`): looked up now.
        if publication.manifest.isNavigationBuilt { contents = TableOfContentsIndex(publication.tableOfContents) }
    }

    var title: String { publication.metadata.title ?? entry?.title ?? "" }

    /// The title of the chapter shown: its table-of-contents entry (``currentTOCEntry``), else
    /// its own title.
    var chapterTitle: String {
        if let label = source.pageLabel(state.chapter) { return "Page \(label) of \(source.count)" }
        let order = publication.readingOrder
        guard order.indices.contains(state.chapter) else { return "" }
        if let entry = currentTOCEntry, !entry.title.isEmpty { return entry.title }
        let href = Href.removingFragment(order[state.chapter].href)
        return chapterTitles[href] ?? document?.title ?? order[state.chapter].title ?? ""
    }

    /// The table-of-contents entry the page is in: of the entries pointing into the chapter
    /// shown, the last whose target (its fragment's element, or the start of the file) is at
    /// or before the top of the page. Several entries often point into one file (a poem's
    /// parts, a book in one XHTML file): the first one is not always the one being read.
    var currentTOCEntry: TOCEntry? {
        let order = publication.readingOrder
        guard order.indices.contains(state.chapter) else { return nil }
        let path = Href.removingFragment(order[state.chapter].href)
        let candidates = tocEntries.filter { $0.path == path }
        guard let first = candidates.first else { return nil }
        let top = state.topOffset
        var best: (entry: TOCEntry, offset: Int)?
        for entry in candidates {
            let offset: Int? = entry.fragment.map { document?.offset(ofFragment: $0) } ?? 0
            guard let offset, offset <= top else { continue }
            // At the same place, the later (deeper) entry is the more precise one.
            if best == nil || offset >= best!.offset { best = (entry, offset) }
        }
        return best?.entry ?? first
    }

    /// An entry of the table of contents, flattened in reading order.
    typealias TOCEntry = TableOfContentsIndex.Entry

    /// The table of contents, flattened.
    var tocEntries: [TOCEntry] { contents.entries }

    /// The reading-order index of `href` (fragment ignored).
    func chapterIndex(of href: String) -> Int? {
        source.index(of: href)
    }

    /// The position to save: the player's while there is one, else the page's.
    var positionToSave: (locator: Locator, progress: Double?)? {
        if let playback {
            let locator = playback.locator
            return (locator, locator.locations.totalProgression)
        }
        guard let locator = state.currentLocator else { return nil }
        return (locator, state.bookProgression ?? state.estimatedBookProgression)
    }

    func cancelAll() {
        playback?.close()
        loading?.cancel()
        searchTask?.cancel()
        for task in background { task.cancel() }
        background.removeAll()
    }
}
