import Bookshelf
import FoundationEssentials
import Shared
import Terminal
import TextLayout

/// Keys on the reader's page, and the jumps they lead to.
extension ReaderApp {
    func handleReader(_ key: Key, book: BookController) {
        if handleSyncOffer(key, book: book) { return }
        if handleHintKeys(key, book: book) { return }
        if book.selection != nil {
            handleSelection(key, book: book)
            return
        }
        if key == .control("c") { backFromReader(); return }
        if handleReadAloudKey(key, book: book) { return }
        if case .character(let character) = key, config.keyMap.action(for: key) == nil || !book.state.pendingCount.isEmpty,
           book.state.takeCountDigit(character) {
            return
        }
        guard let action = config.keyMap.action(for: key) else {
            book.state.clearCount()
            // Escape clears (the message went with the key; the search's highlights go too)
            // and never leaves the book: q does.
            if key == .escape, book.search != nil {
                book.search = nil
            }
            return
        }
        let count = book.state.takeCount()
        if handlePictureAction(action, count: count, book: book) { return }
        switch action {
        case .quit:
            backFromReader()
        case .help:
            overlays.append(HelpScreen(help: HelpState(keyMap: config.keyMap)))
        case .tableOfContents:
            let href = book.source.isPaged ? nil : Optional(book.currentTOCEntry?.href ?? book.source.href(book.state.chapter))
            let publication = book.publication
            let toc = TOCState(tableOfContents: publication.contents, pageList: publication.pageList,
                               landmarks: publication.landmarks, currentHref: href,
                               currentPage: book.source.pageLabel(book.state.chapter) ?? book.printedPage,
                               visibleRows: PopupViews.listRows(windowRows: screen.size.rows))
            overlays.append(ContentsScreen(toc: toc))
        case .search:
            overlays.append(PromptScreen(state: PromptState(kind: .search)))
        case .command:
            overlays.append(PromptScreen(state: PromptState(kind: .command)))
        case .goToPercent:
            if let count { recordJump(book); apply(book.state.go(toPercent: Double(min(count, 100))), book) } else { overlays.append(PromptScreen(state: PromptState(kind: .percent))) }
        case .searchNext:
            searchStep(book, forward: true)
        case .searchPrevious:
            searchStep(book, forward: false)
        case .searchResults:
            showSearchResults(book)
        case .addBookmark:
            addBookmark(book)
        case .bookmarks:
            showBookmarks(book)
        case .highlight:
            highlightKey(book, number: count ?? 1)
        case .annotations:
            showAnnotationList(book)
        case .hints:
            startHints(book)
        case .followNote:
            followNote(book, number: count ?? 1)
        case .jumpBack:
            stepJump(book, forward: false)
        case .jumpForward:
            stepJump(book, forward: true)
        case .nextTheme:
            nextTheme()
        case .narrower, .wider, .toggleJustify, .toggleIndent, .cycleMargin, .cycleSpacing:
            changeLayoutSetting(action, book: book)
        case .lookUp:
            lookUpWord(book)
        case .select:
            startSelection(book)
        case .placeCursor:
            startSelection(book, cursor: true)
        case .print:
            startPrint(book)
        case .openInBrowser:
            openInBrowser(book)
        case .playPause, .seekForward, .seekBackward, .seekForwardLong, .seekBackwardLong, .nextAudioChapter,
             .previousAudioChapter, .faster, .slower:
            handleAudio(action, book: book)
        case .nextChapter where book.playback != nil, .previousChapter where book.playback != nil:
            // While listening, ] and [ change the track playing; the page follows it.
            handleAudio(action, book: book)
        case .nextChapter, .previousChapter:
            stepSection(book, forward: action == .nextChapter, count: count)
        case .openImage:
            if showsPicture(book), let display = book.pictures {
                // The page is the picture (a comic, a PDF shown as pictures): all of it, alone.
                display.fit = .page
                display.spread = false
                display.panRow = 0
                requestPictures(book)
                message = "The whole page (z: fit to the width, D: two pages)."
            } else if !openImage(book) {
                message = "No picture on this page."
            }
        case .redraw:
            screen.invalidate()
            picturesInvalidated()
        case .start, .end:
            recordJump(book)
            apply(book.state.perform(action, count: count), book)
        default:
            apply(book.state.perform(action, count: count), book)
        }
    }

    func apply(_ effect: ReaderState.Effect, _ book: BookController) {
        notePage(book)
        switch effect {
        case .none: break
        case .load(let chapter, let anchor): load(book, chapter: chapter, anchor: anchor)
        case .message(let text): message = text
        case .awaitWhole(let anchor):
            book.awaitWhole(anchor)
            if book.anchorWaiting != nil { message = Self.restBeingRead }
        case .awaitRest(let action, let count):
            // The page stays until the rest of the chapter arrives, then the movement is made.
            if book.awaitRest(action, count: count) { message = Self.restBeingRead }
        }
    }

    /// Goes to `href` (a chapter, with or without a fragment); in a PDF, to the heading titled
    /// `heading` on that page when it has one (a contents entry), else the page's top.
    func jump(_ book: BookController, to href: String, heading: String? = nil) {
        guard let chapter = book.chapterIndex(of: href) else {
            message = "Not in the reading order: \(href)"
            return
        }
        let headingAnchor = heading.flatMap { book.source.isPaged ? ReaderState.Anchor.fragment(SyntheticDocuments.headingID($0)) : nil }
        let anchor: ReaderState.Anchor = headingAnchor ?? Href.fragment(of: href).map { .fragment($0) } ?? .start
        if chapter == book.state.chapter, book.loadingChapter == nil {
            book.state.move(to: anchor)
            savePosition(book)
        } else {
            load(book, chapter: chapter, anchor: anchor)
        }
    }

    func jump(_ book: BookController, to locator: Locator) {
        guard let chapter = book.chapterIndex(of: locator.href) else { return }
        if chapter == book.state.chapter, book.loadingChapter == nil {
            book.state.move(to: .locator(locator))
            savePosition(book)
        } else {
            load(book, chapter: chapter, anchor: .locator(locator))
        }
    }
}
