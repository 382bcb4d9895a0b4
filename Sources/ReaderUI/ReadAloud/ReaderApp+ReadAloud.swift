import FoundationEssentials
import ReadAloud
import Shared
import Speech
import Terminal
import TextLayout

/// Read-aloud on the reader's page (`r`): the book's narration when it has media overlays,
/// else its text spoken (espeak-ng), from the page shown. The words read are highlighted, the
/// page and the chapter follow them; `r` pauses and resumes, Escape stops, + and - change the
/// speed, `,` and `.` (the audiobook seeks) go to the previous or next phrase or sentence, `{`
/// and `}` to the previous or next paragraph, `x` leaves a narration's table or list. A selection
/// or the search match shown is where `r` starts, rather than the page's top. The
/// place saved is the phrase read (``ReadAloudPlace``): when reading stops, pauses, or the book
/// closes on its page. Reading aloud is not copying: only a restricted publication refuses it, with the
/// reason (the words are not written anywhere; the page shows them already).
extension ReaderApp {
    /// Carries out a read-aloud key (``ReaderScreen`` decided it is one).
    func readAloud(_ request: ReadAloudKey, book: BookController) {
        if case .toggle = request {
            if let session = ReadAloudSession.of(book) {
                session.togglePause()
                queuePosition(book, onlyIfMoved: true)
            } else {
                startReadAloud(book)
            }
            return
        }
        guard let session = ReadAloudSession.of(book) else { return }
        switch request {
        case .toggle: break
        case .faster: session.changeSpeed(by: 0.25)
        case .slower: session.changeSpeed(by: -0.25)
        case .step(let delta): session.engine?.step(by: delta)
        case .paragraph(let forward): goToParagraph(forward: forward, session: session, book: book)
        case .leaveStructure:
            if session.engine?.escape() != true { message = "Not reading a table, a list or a figure of a narration." }
        case .stop:
            session.end()
            message = "Stopped reading aloud."
            queuePosition(book, onlyIfMoved: true)
        }
    }

    /// Reads aloud from the selection's start, instead of what was being read if anything.
    func readAloudFromSelection(_ book: BookController) {
        ReadAloudSession.of(book)?.end()
        startReadAloud(book)
    }

    /// Starts reading aloud from the page shown (from a selection or the search match shown
    /// there when there is one).
    func startReadAloud(_ book: BookController) {
        let publication = book.publication
        guard !publication.isAudiobook else { message = "This is an audiobook: a plays it."; return }
        guard !book.source.isPaged else { message = "Read-aloud reads the text of reflowable books."; return }
        do throws(RenderingPermission.Refusal) {
            try RenderingPermission.checkDisplay(publication)
        } catch {
            message = SpeechError.restricted(error.userMessage).userMessage
            return
        }
        guard let layout = book.state.layout else { message = "The page is still being read."; return }
        let keyName = config.keyMap.keys(for: .readAloud).first?.name ?? "r"
        let session = ReadAloudSession(book: book, narrated: MediaOverlayBook.declared(in: publication), keyName: keyName)
        session.begin()
        message = nil
        let chapter = book.state.chapter
        // The page's first text: lines without text (blank lines, rules) have no offsets.
        var pageStart = book.state.visibleLines.lazy.map { layout.lines[$0].offsets }.first { !$0.isEmpty }?.lowerBound
            ?? layout.lines[book.state.visibleLines.lowerBound].offsets.lowerBound
        var place = layout.locator(forLine: book.state.top)
        // The phrase read last (kept while its page is shown), else the place the book reopened
        // at while its line is still the top: a phrase inside the top line, not the line's start.
        // A selection or the search match on the page is asked for explicitly: it wins.
        let chosen = chosenStart(book, layout: layout)
        book.selection = nil
        if let chosen {
            pageStart = chosen
            place = layout.document.locator(at: chosen)
        } else if let saved = ReadAloudPlace.locator(of: book) ?? book.resumeLocator.flatMap({ saved in
            book.chapterIndex(of: saved.href) == chapter && layout.lineIndex(for: saved) == book.state.top ? saved : nil
        }) {
            pageStart = layout.document.offset(for: saved)
            place = saved
        }
        place.href = book.source.href(chapter)
        let anchors = layout.document.anchors.mapValues(\.offset)
        let environment = ReadAloudSession.environment
        let speed = 1.0
        let readSkippable = config.readSkippable
        book.tasks.start(nil) { [weak self, weak book] in
            let engine: any ReadAloudEngine
            do throws(ReadAloudError) {
                if session.narrated {
                    engine = try await OverlayReadAloud.start(publication: publication, chapter: chapter, pageStart: pageStart, anchors: anchors,
                                                              chapterOf: { book?.chapterIndex(of: $0) }, containing: chosen != nil,
                                                              readSkippable: readSkippable,
                                                              speed: speed, environment: environment)
                } else {
                    engine = try await SpeechReadAloud.start(publication: publication, at: place, speed: speed, environment: environment)
                }
            } catch {
                guard !session.hasEnded else { return }
                session.end()
                self?.message = error.userMessage
                self?.render()
                return
            }
            // Stopped (Escape, the book closed) while the engine started.
            guard !session.hasEnded, !Task.isCancelled else { return engine.stop() }
            session.engine = engine
            session.phase = .reading
            self?.render()
            for await event in engine.events {
                guard let self, let book, !session.hasEnded else { break }
                self.readAloud(event, session: session, book: book)
            }
            session.end()
            self?.render()
        }
        render()
    }

    /// Reads on from the next or the previous paragraph of the chapter shown.
    private func goToParagraph(forward: Bool, session: ReadAloudSession, book: BookController) {
        guard let current = session.current, book.chapterIndex(of: current.href) == book.state.chapter,
              let document = book.state.layout?.document, let offset = session.offsetToShow(in: document),
              let block = document.blockIndex(containing: offset) else { return }
        let target = !forward ? document.blocks[block].offset
            : block + 1 < document.blocks.count ? document.blocks[block + 1].offset : document.length
        guard session.engine?.go(toParagraph: target, forward: forward, href: current.href, document: document) == true else {
            message = forward ? "No paragraph after this one." : "No paragraph before this one."
            return
        }
    }

    /// Where a selection (`v`), else the search match shown on the page, starts: reading
    /// starts there rather than at the page's top.
    private func chosenStart(_ book: BookController, layout: LaidOutDocument) -> Int? {
        if let selection = book.selection { return selection.range.lowerBound }
        guard let match = book.search?.current, match.chapter == book.state.chapter,
              let line = layout.lineIndex(containing: match.range.lowerBound), book.state.visibleLines.contains(line) else { return nil }
        return match.range.lowerBound
    }

    /// Shows what an event says: the highlight moves and the page, or the chapter, follows it.
    private func readAloud(_ event: ReadAloudEvent, session: ReadAloudSession, book: BookController) {
        session.take(event)
        switch event {
        case .span, .word:
            follow(session, book: book)
        case .time:
            break
        case .finished:
            session.end()
            message = "Finished reading aloud."
            queuePosition(book, onlyIfMoved: true)
        case .failed(let reason):
            session.end()
            message = "Read-aloud stopped: \(TerminalText.singleLine(reason))"
            queuePosition(book, onlyIfMoved: true)
        }
        render()
    }

    /// Brings the words read into view: the page holding them, in their chapter.
    private func follow(_ session: ReadAloudSession, book: BookController) {
        guard let current = session.current, let chapter = book.chapterIndex(of: current.href) else { return }
        if chapter != book.state.chapter {
            guard book.loadingChapter != chapter else { return }
            let anchor: ReaderState.Anchor
            switch current.place {
            case .range(let range): anchor = .offset(range.lowerBound)
            case .element(let fragment, _): anchor = .fragment(fragment)
            }
            load(book, chapter: chapter, anchor: anchor)
            return
        }
        guard book.loadingChapter == nil, let document = book.state.layout?.document,
              let offset = session.offsetToShow(in: document) else { return }
        let top = book.state.top
        book.state.reveal(offset: offset)
        ReadAloudPlace.note(session, book: book)
        if book.state.top != top { savePosition(book) }
    }
}
