import Terminal
import TextLayout

/// The reader's page (#30): the open book's keys become effects that the application carries
/// out (``ReaderEffect``, ``ReaderApp/perform(_:book:)``). What only changes the book's own
/// state of keys (a count being typed, hint labels, a selection's ends) changes here; what
/// needs the library, the window, tasks or other layers is an effect.
///
/// The modes over the page that take keys before its actions are in ReaderScreen+Modes.swift:
/// a synced place offered, hint mode and the external-link question, a selection, read-aloud.
@MainActor
struct ReaderScreen {
    /// The open book: the page's state.
    let book: BookController
    let keyMap: KeyMap

    /// Turns `key` into what the application is to do, in a window of `size`.
    func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        if let effects = syncOfferKey(key) { return effects }
        if let effects = hintKey(key) { return effects }
        if book.selection != nil { return selectionKey(key) }
        if key == .control("c") { return [.reader(.back)] }
        if let effects = readAloudKey(key) { return effects }
        if case .character(let character) = key, keyMap.action(for: key) == nil || !book.state.pendingCount.isEmpty,
           book.state.takeCountDigit(character) {
            return []
        }
        guard let action = keyMap.action(for: key) else {
            book.state.clearCount()
            // Escape clears (the message went with the key; the search's highlights go too)
            // and never leaves the book: q does.
            if key == .escape, book.search != nil {
                book.search = nil
            }
            return []
        }
        let count = book.state.takeCount()
        if takesAsPictures(action) { return [.reader(.pictures(action, count: count))] }
        return effects(of: action, count: count, size: size)
    }

    /// Draws the page and its status line: the reader's prompt typed there when it is the
    /// layer on top (it places the cursor), else `message` or the book's own line. Reads the
    /// book only: what moves (the pictures drawn over the text) is the application's output.
    func draw(into painter: Painter, prompt: PromptState?, message: String?) {
        ReaderView.draw(book, painter: painter, prompt: prompt, message: message)
    }

    /// What `action` does on the page, typed with `count` (nil: none).
    private func effects(of action: ReaderAction, count: Int?, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        let effect: ReaderEffect
        switch action {
        case .quit: effect = .back
        case .help: return [.push(HelpScreen(help: HelpState(keyMap: keyMap)))]
        case .tableOfContents: return [.push(contents(windowRows: size.rows))]
        case .search: return [.push(PromptScreen(state: PromptState(kind: .search)))]
        case .command: return [.push(PromptScreen(state: PromptState(kind: .command)))]
        case .goToPercent:
            guard let count else { return [.push(PromptScreen(state: PromptState(kind: .percent)))] }
            effect = .goToPercent(Double(min(count, 100)))
        case .searchNext: effect = .searchStep(forward: true)
        case .searchPrevious: effect = .searchStep(forward: false)
        case .searchResults: effect = .searchResults
        case .addBookmark: effect = .addBookmark
        case .bookmarks: effect = .bookmarks
        case .highlight: effect = .highlight(number: count ?? 1)
        case .annotations: effect = .annotations
        case .hints: effect = .startHints
        case .followNote: effect = .followNote(number: count ?? 1)
        case .jumpBack: effect = .stepJump(forward: false)
        case .jumpForward: effect = .stepJump(forward: true)
        case .nextTheme: effect = .nextTheme
        case .narrower, .wider, .toggleJustify, .toggleIndent, .cycleMargin, .cycleSpacing: effect = .layoutSetting(action)
        case .lookUp: effect = .lookUp
        case .select: effect = .select(cursor: false)
        case .placeCursor: effect = .select(cursor: true)
        case .print: effect = .print
        case .openInBrowser: effect = .openInBrowser
        case .playPause, .seekForward, .seekBackward, .seekForwardLong, .seekBackwardLong, .nextAudioChapter,
             .previousAudioChapter, .faster, .slower:
            effect = .audio(action)
        case .nextChapter where book.playback != nil, .previousChapter where book.playback != nil:
            // While listening, ] and [ change the track playing; the page follows it.
            effect = .audio(action)
        case .nextChapter, .previousChapter: effect = .stepSection(forward: action == .nextChapter, count: count)
        case .openImage: effect = .openImage
        case .redraw: effect = .redraw
        case .start, .end: effect = .move(action, count: count, recordsJump: true)
        default: effect = .move(action, count: count, recordsJump: false)
        }
        return [.reader(effect)]
    }

    /// The contents popup, on the entry of the page shown.
    private func contents(windowRows: Int) -> ContentsScreen {
        let href = book.source.isPaged ? nil : Optional(book.currentTOCEntry?.href ?? book.source.href(book.state.chapter))
        let publication = book.publication
        let toc = TOCState(tableOfContents: publication.contents, pageList: publication.pageList,
                           landmarks: publication.landmarks, currentHref: href,
                           currentPage: book.source.pageLabel(book.state.chapter) ?? book.printedPage,
                           visibleRows: PopupViews.listRows(windowRows: windowRows))
        return ContentsScreen(toc: toc)
    }

    /// Whether `action` means something else while the book's pages are pictures (a comic,
    /// a PDF shown as pictures): turning and panning, the fit, two pages side by side.
    private func takesAsPictures(_ action: ReaderAction) -> Bool {
        guard let display = book.pictures else { return false }
        return action == .togglePictures || (display.isOn && ReaderApp.pictureActions.contains(action))
    }
}
