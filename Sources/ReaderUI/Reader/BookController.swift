import Bookshelf
import FoundationEssentials
import Shared
import TextLayout

/// An open book in the reader and its one owner: the publication, its library entry, the
/// chapter on screen (its document, kept to lay it out again on resize), and every task
/// started for it (``tasks``) and its audio playback, which ``close()`` ends.
///
/// The application makes one when a book opens and closes it when the book closes (back to
/// the bookshelf, quitting, opening another book): what its tasks computed is then dropped,
/// as they are cancelled and apply nothing once cancelled.
@MainActor
final class BookController {
    let opened: OpenedPublication
    var publication: Publication { opened.publication }
    /// The chapters: reading-order documents, or a PDF's pages.
    let source: ChapterSource
    var state: ReaderState
    /// Every task started for this book: closing the book cancels them.
    let tasks = BookTasks()
    /// Whether ``close()`` was called.
    var isClosed: Bool { tasks.isClosed }
    // The rest of the book's state, in cohesive parts (BookController+Parts.swift); the
    // properties of the same names below forward to them.
    /// The chapter shown and the one being loaded (``loadChapter(_:at:then:)``).
    var chapters: ChapterLoadState
    /// The selection, hints, search and highlights of the page.
    var interaction = BookInteraction()
    /// The table of contents placed in the reading order, and the jumps.
    var navigation = BookNavigation()
    /// The book's library record: the entry, the place saved and synced.
    var record: BookRecord
    /// The book-wide pass: every chapter's text, and the reading pace.
    var pass: BookWidePass
    /// The book's pictures, figures and audio playback.
    var displays = BookDisplays()

    init(opened: OpenedPublication, entry: LibraryEntry?, options: LayoutOptions, column: TextColumn, rows: Int,
         measuresPictures: Bool = false) {
        self.opened = opened
        let source = ChapterSource(publication: opened.publication, measuresPictures: measuresPictures)
        self.source = source
        chapters = ChapterLoadState(loader: ContentDocumentLoader(publication: opened.publication),
                                    options: options, column: column)
        record = BookRecord(entry: entry)
        pass = BookWidePass(textIndex: BookTextIndex(chapterCount: source.count))
        let publication = opened.publication
        state = ReaderState(chapterCount: source.count,
                            rightToLeft: publication.metadata.readingProgression == .rtl, rows: rows)
        // Known without reading anything (a PDF's outline, a manifest's `toc`): looked up now.
        if publication.manifest.isNavigationBuilt {
            contents = TableOfContentsIndex(publication.contents)
        }
    }

    /// The entries of `contents` placed in `source`'s chapters (one lookup table for the
    /// reading order: a book may list thousands of entries).
    static func sections(of contents: TableOfContentsIndex, source: ChapterSource) -> ContentsSections {
        if source.isPaged { return ContentsSections(contents) { source.index(of: $0) } }
        var paths: [String: Int] = [:]
        for index in 0..<source.count {
            let path = Href.removingFragment(source.href(index))
            if paths[path] == nil { paths[path] = index }
        }
        return ContentsSections(contents) { paths[Href.removingFragment($0)] }
    }

    var title: String { publication.metadata.title ?? entry?.title ?? "" }

    /// The title of the chapter shown: its table-of-contents entry (``currentTOCEntry``), else
    /// its own title.
    var chapterTitle: String {
        if let title = source.pageTitle(state.chapter) { return title }
        let order = publication.readingOrder
        guard order.indices.contains(state.chapter) else { return "" }
        if let entry = currentTOCEntry, !entry.title.isEmpty { return entry.title }
        let href = Href.removingFragment(order[state.chapter].href)
        return chapterTitles[href] ?? document?.title ?? order[state.chapter].title ?? ""
    }

    /// The table-of-contents entry the page is in: of the entries pointing into the chapter
    /// shown, the last whose target (its fragment's element, or the start of the file) is on
    /// or above the top line of the page. Several entries often point into one file (a poem's
    /// parts, a book in one XHTML file): the first one is not always the one being read.
    var currentTOCEntry: TOCEntry? {
        sections.entry(inChapter: state.chapter, at: state.top, positionOf: lineOfEntry)
            .map { tocEntries[$0] }
    }

    /// The line of the layout shown where a contents entry of the chapter shown begins (an
    /// anchor inside a line is on that line); nil when its element is not in the layout.
    func lineOfEntry(_ entry: TOCEntry) -> Int? {
        guard let fragment = entry.fragment else { return 0 }
        if source.isPaged { return 0 }
        return state.layout?.lineIndex(forFragment: fragment)
    }

    /// An entry of the table of contents, flattened in reading order.
    typealias TOCEntry = TableOfContentsIndex.Entry

    /// The table of contents, flattened.
    var tocEntries: [TOCEntry] { contents.entries }

    /// The reading-order index of `href` (fragment ignored).
    func chapterIndex(of href: String) -> Int? {
        source.index(of: href)
    }

    /// Whether the publication is protected (LCP, a ZIP or PDF password): its text is
    /// decrypted content, never written to disk (``StoredPlace``).
    var isProtected: Bool { publication.isProtected }

    /// The position to save: the player's while there is one, else the phrase read aloud
    /// (``ReadAloudPlace``), else the page's; as the library may hold it (``StoredPlace``).
    var positionToSave: (locator: Locator, progress: Double?)? {
        if let playback {
            let locator = StoredPlace.locator(playback.locator, protected: isProtected)
            return (locator, locator.locations.totalProgression)
        }
        // The phrase read aloud last, while the page the reading left is shown.
        guard let locator = ReadAloudPlace.locator(of: self) ?? state.currentLocator else { return nil }
        return (StoredPlace.locator(locator, protected: isProtected), state.bookProgression ?? state.estimatedBookProgression)
    }

    // MARK: - Chapter loading

    /// What of a chapter being loaded has just been put on screen.
    enum ChapterArrival: Equatable, Sendable {
        /// Its first few screens: the rest is being converted.
        case firstPart
        /// All of it, replacing its first part if that was shown; `carriedOut` when a movement
        /// that waited for the rest (a page down, a jump to a percentage or to the end) was
        /// then carried out.
        case whole(carriedOut: Bool)
    }

    /// Shows `offset` of the chapter on screen; when it lies past the part of the chapter shown
    /// so far, it is shown once the rest arrives (the first part stays meanwhile).
    func reveal(offset: Int) {
        if partialChapter == state.chapter, offset >= (document?.length ?? 0) {
            revealWaiting = offset
            return
        }
        state.reveal(offset: offset)
    }

    /// Moves to `anchor` in the chapter shown, which a first part cannot place
    /// (``ReaderState/Effect/awaitWhole(_:)``): once the rest arrives.
    func awaitWhole(_ anchor: ReaderState.Anchor) {
        guard partialChapter == state.chapter else {
            state.move(to: anchor)
            return
        }
        anchorWaiting = anchor
    }

    /// Whether a page down to `chapter` at `anchor` waits for the rest of the chapter shown in
    /// part, rather than leaving it: then it is noted, carried out when the rest arrives.
    func waitsForRest(beforeShowing chapter: Int, at anchor: ReaderState.Anchor) -> Bool {
        guard let partial = partialChapter, partial == state.chapter, chapter == partial + 1, anchor == .start,
              loadingChapter == partial else { return false }
        movementWaiting = (.pageDown, 1)
        return true
    }

    /// Notes `action` (`count` times) past the first part of the chapter shown in part
    /// (``ReaderState/Effect/awaitRest(_:count:)``), carried out when the rest arrives; returns
    /// whether it waits (false when the chapter shown is not loading in part).
    func awaitRest(_ action: ReaderAction, count: Int) -> Bool {
        guard let partial = partialChapter, partial == state.chapter, loadingChapter == partial else { return false }
        movementWaiting = (action, count)
        return true
    }

    /// Loads and lays out chapter `chapter` off the main actor, then shows it at `anchor` and
    /// calls `shown`. A newer request replaces it; closing the book drops it. Returns the task
    /// (nil when there is no such chapter or the book is closed).
    ///
    /// A chapter opened at a place known before it is converted (its start, an offset, a
    /// saved position in a chapter counted before) is shown as soon as the text up to that
    /// place and a few screens more is converted
    /// (``ChapterSource/document(_:firstPartLength:recorded:firstPart:)``, `shown` with `.firstPart`),
    /// or, deep in a chapter whose checkpoints are known, from a stretch around the place (``ChapterSource/part(_:from:to:)``):
    /// the rest is converted and laid out meanwhile, then replaces it, keeping the line read in
    /// view. Both arrive through the one task of the chapter, so neither outlives the book.
    @discardableResult
    func loadChapter(_ chapter: Int, at anchor: ReaderState.Anchor,
                     then shown: @escaping @MainActor (BookController, ChapterArrival) -> Void) -> Task<Void, Never>? {
        guard chapter >= 0, chapter < source.count, !isClosed else { return nil }
        loadingChapter = chapter
        partialChapter = nil
        movementWaiting = nil
        revealWaiting = nil
        anchorWaiting = nil
        // The layout of the chapter being left is of no use any more.
        tasks.cancel(.relayout)
        let source = source, options = options
        let preloaded = preloaded?.chapter == chapter ? preloaded?.document : nil
        let placeShown = preloaded == nil && !source.isPaged ? state.estimatedOffset(of: anchor, inChapter: chapter) : nil
        // Three screens past the place shown: enough to page on while the rest is converted.
        let screens = max(8_000, options.width * state.rows * 3)
        let firstPartLength = placeShown.map { $0 + screens }
        // Deep in a chapter whose checkpoints are known, a stretch around the place instead: from
        // the checkpoint a screen or more before it (on average half a checkpoint's spacing more:
        // some four screens to page back on) to the block three screens after it.
        let stretch = placeShown.flatMap { place in
            state.chapterCheckpoints[chapter].flatMap { ChapterCheckpoint.stretch(of: $0, showing: place, before: screens / 3, after: screens) }
        }
        return tasks.start(.chapter) { [weak self] in
            let (arrivals, sink) = AsyncStream.makeStream(of: LaidOutChapter.self)
            async let converted: Void = Blocking.run {
                let document: TextDocument
                var checkpoints: [ChapterCheckpoint]?
                if let preloaded {
                    document = preloaded
                } else {
                    var stretchShown = false
                    if let stretch, let placeShown,
                       let part = source.part(chapter, from: stretch.from, to: stretch.to, stoppingAt: placeShown + screens),
                       part.offsets.upperBound > placeShown {
                        sink.yield(LaidOutChapter(document: part.document, layout: LayoutEngine.layout(part.document, options: options),
                                                  isWhole: false, options: options))
                        stretchShown = true
                    }
                    document = source.document(chapter, firstPartLength: stretchShown ? nil : firstPartLength,
                                               recorded: { checkpoints = $0 }) { part in
                        sink.yield(LaidOutChapter(document: part, layout: LayoutEngine.layout(part, options: options),
                                                  isWhole: false, options: options))
                    }
                }
                sink.yield(LaidOutChapter(document: document, layout: LayoutEngine.layout(document, options: options),
                                          isWhole: true, options: options, checkpoints: checkpoints))
                sink.finish()
            }
            for await laidOut in arrivals {
                guard !Task.isCancelled, let self, loadingChapter == chapter else { break }
                var arrival = laidOut
                if arrival.options != self.options {
                    // The window changed while it was laid out (the first part was laid out
                    // again meanwhile): the chapter is laid out anew at the size shown.
                    let current = self.options, document = arrival.document
                    let layout = await Blocking.run { LayoutEngine.layout(document, options: current) }
                    guard !Task.isCancelled, loadingChapter == chapter else { break }
                    arrival = LaidOutChapter(document: document, layout: layout, isWhole: arrival.isWhole, options: current,
                                             checkpoints: arrival.checkpoints)
                }
                if let shownAs = show(arrival, chapter: chapter, anchor: anchor, placeShown: placeShown ?? 0) {
                    shown(self, shownAs)
                }
            }
            await converted
        }
    }

    /// A chapter's document laid out: its first part, or all of it.
    private struct LaidOutChapter: Sendable {
        let document: TextDocument
        let layout: LaidOutDocument
        let isWhole: Bool
        /// The options it was laid out with.
        let options: LayoutOptions
        /// The checkpoints recorded converting it whole (nil when not converted here).
        var checkpoints: [ChapterCheckpoint]?
    }

    /// Puts a part of chapter `chapter` being loaded on screen; returns what was shown.
    private func show(_ arrival: LaidOutChapter, chapter: Int, anchor: ReaderState.Anchor,
                      placeShown: Int) -> ChapterArrival? {
        guard arrival.isWhole else {
            // A part that ends before the place (a length counted for an older edition) is not shown.
            guard placeShown < arrival.document.length else { return nil }
            partialChapter = chapter
            selection = nil
            hints = nil
            document = arrival.document
            state.show(chapter: chapter, layout: arrival.layout, anchor: anchor,
                       part: .firstPart(wholeLength: state.knownLength(ofChapter: chapter)))
            return .firstPart
        }
        loadingChapter = nil
        document = arrival.document
        if let checkpoints = arrival.checkpoints { state.chapterCheckpoints[chapter] = checkpoints.isEmpty ? nil : checkpoints }
        noteEntryOffsets(chapter: chapter, document: arrival.document)
        // A new layout of the first part (after a resize) is of no use: the whole is laid out at that size.
        tasks.cancel(.relayout)
        if partialChapter == chapter, state.chapter == chapter {
            // The whole chapter replaces its first part: same offsets, same line in view.
            partialChapter = nil
            state.extend(to: arrival.layout)
            let carriedOut = movementWaiting != nil || anchorWaiting != nil
            if let (action, count) = movementWaiting {
                movementWaiting = nil
                _ = state.perform(action, count: count)
            }
            if let anchor = anchorWaiting {
                anchorWaiting = nil
                state.move(to: anchor)
            }
            if let offset = revealWaiting {
                revealWaiting = nil
                state.reveal(offset: offset)
            }
            return .whole(carriedOut: carriedOut)
        }
        partialChapter = nil
        selection = nil
        hints = nil
        state.show(chapter: chapter, layout: arrival.layout, anchor: anchor)
        return .whole(carriedOut: false)
    }

    /// Reads chapter `chapter` ahead in the background, unless it already is; returns the task
    /// (the book-wide pass waits for it).
    func readAhead(_ chapter: Int) -> Task<Void, Never>? {
        guard chapter < source.count, preloaded?.chapter != chapter else { return nil }
        let source = source
        return tasks.start(.readAhead, computing: { await Blocking.runInBackground { source.load(chapter) } },
                           then: { [weak self] document in
            if let document { self?.preloaded = (chapter, document) }
        })
    }

    /// Lays the chapter shown out again with `options` (a new window size or layout setting),
    /// keeping the first line's place, then calls `done`.
    func layOutAgain(with options: LayoutOptions, then done: @escaping @MainActor () -> Void) {
        self.options = options
        preloaded = nil
        guard let document else { return }
        tasks.start(.relayout, computing: { await Blocking.run { LayoutEngine.layout(document, options: options) } },
                    then: { [weak self] layout in
            guard let self else { return }
            state.relayout(layout)
            // The labels name places of the old layout.
            hints = nil
            done()
        })
    }

    // MARK: - Closing

    /// Ends everything started for the book: its tasks are cancelled (what they computed is
    /// never applied), playback stops and the publication is closed. Save the position first.
    func close() {
        guard !isClosed else { return }
        tasks.cancelAll()
        playback?.onChange = nil
        playback?.close()
        playback = nil
        publication.close()
    }
}
