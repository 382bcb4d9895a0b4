import Bookshelf
import FoundationEssentials
import Shared
import Terminal
import TextLayout

/// What the reader's page asks (``ReaderScreen``, #30), carried out with the open book, and
/// the jumps it leads to.
extension ReaderApp {
    /// The reader's part of the effect interpreter.
    func perform(_ effect: ReaderEffect, book: BookController) {
        switch effect {
        case .back: backFromReader()
        case .move(let action, let count, let recordsJump):
            if recordsJump { recordJump(book) }
            apply(book.state.perform(action, count: count), book)
        case .goToPercent(let percent):
            recordJump(book)
            apply(book.state.go(toPercent: percent), book)
        case .goTo(let locator): jump(book, to: locator)
        case .searchStep(let forward): searchStep(book, forward: forward)
        case .searchResults: showSearchResults(book)
        case .addBookmark: addBookmark(book)
        case .bookmarks: showBookmarks(book)
        case .highlight(let number): highlightKey(book, number: number)
        case .highlightRange(let range, let thenNote): highlight(range, book: book, thenNote: thenNote)
        case .annotations: showAnnotationList(book)
        case .startHints: startHints(book)
        case .follow(let target, let targets): follow(target, among: targets, book: book)
        case .openExternally(let url): openExternally(url, book: book)
        case .followNote(let number): followNote(book, number: number)
        case .stepJump(let forward): stepJump(book, forward: forward)
        case .nextTheme: nextTheme()
        case .layoutSetting(let action): changeLayoutSetting(action, book: book)
        case .lookUp: lookUpWord(book)
        case .select(let cursor): startSelection(book, cursor: cursor)
        case .copy(let text): copy(text, book: book)
        case .print: startPrint(book)
        case .openInBrowser: openInBrowser(book)
        case .audio(let action): handleAudio(action, book: book)
        case .stepSection(let forward, let count): stepSection(book, forward: forward, count: count)
        case .openImage: openImageKey(book)
        case .redraw:
            screen.invalidate()
            picturesInvalidated()
        case .pictures(let action, let count): handlePictureAction(action, count: count, book: book)
        case .readAloud(let request): readAloud(request, book: book)
        case .readAloudFromSelection: readAloudFromSelection(book)
        }
    }

    /// `i`: the page's picture alone; on a page that is a picture, all of it.
    private func openImageKey(_ book: BookController) {
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
