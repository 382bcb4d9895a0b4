import Bookshelf
import Pictures
import FoundationEssentials
import Shared
import Terminal
import TextLayout

extension ReaderApp {
    // MARK: - Opening

    /// Opens a publication to read it, at `locator` or else where the person left it: the
    /// person may be asked for its passphrase.
    func openPublication(path: String, entry: LibraryEntry?, at locator: Locator? = nil) {
        overlays.removeAll()
        openingAt = locator
        credentialsCancelled = false
        rememberedPasswordOffered = false
        // The picture libraries start while a comic or PDF opens (their first use is slow).
        warmUpPicturesWhileOpening(path)
        page = .opening(entry?.title ?? LibraryImporter.fileName(path))
        render()
        let open = dependencies.open
        openTask?.cancel()
        openTask = Task { @MainActor [weak self] in
            guard let app = self else { return }
            let result = await open(path, true) { request, _ in await app.answerCredentials(request, path: path, entry: entry) }
            guard let self, !Task.isCancelled, case .opening = self.page else {
                if case .success(let opened) = result { opened.publication.close() }
                return
            }
            self.opened(result, path: path, entry: entry)
            self.render()
        }
    }

    func opened(_ result: Result<OpenedPublication, OpenFailure>, path: String, entry: LibraryEntry?) {
        let title = entry?.title ?? LibraryImporter.fileName(path)
        switch result {
        case .failure(let failure) where failure.needsPassword:
            var advice: [String] = []
            if credentialsCancelled { advice.append("You cancelled the password dialog: the publication stays locked.") }
            advice.append("Press Enter to type the password again.")
            page = .restricted(RestrictedInfo(title: title, protection: "a password", message: failure.message,
                                              advice: advice, canRetry: true), retry: (path, entry))
        case .failure(let failure):
            page = .failure(title: title, message: failure.message)
        case .success(let opened):
            let publication = opened.publication
            do {
                try RenderingPermission.checkDisplay(publication)
            } catch {
                page = .restricted(restrictedInfo(opened, title: publication.metadata.title ?? title, error: error), retry: (path, entry))
                publication.close()
                return
            }
            rememberUnlocked(opened, path: path, entry: entry)
            startReader(opened, path: path, entry: entry)
        }
    }

    /// What the restricted screen says: the protection's error in plain words and what to do.
    func restrictedInfo(_ opened: OpenedPublication, title: String, error: RenderingPermission.Refusal) -> RestrictedInfo {
        let message: String
        switch error {
        case .restricted(let text): message = text.first.map { String($0).uppercased() + text.dropFirst() } ?? text
        case .copyLimited: message = error.userMessage
        }
        let lowered = message.lowercased()
        var advice: [String] = []
        if credentialsCancelled {
            advice.append("You cancelled the passphrase dialog: the publication stays locked.")
        }
        var canRetry = true
        if ["expired", "returned", "revoked", "cancelled", "not started", "starts on"].contains(where: lowered.contains) {
            advice.append("The loan is not active: renew or return it from its license details (L on the bookshelf); a revoked or returned loan cannot be read on this device.")
            canRetry = lowered.contains("expired")
        } else if lowered.contains("passphrase") || lowered.contains("password") || credentialsCancelled {
            advice.append("Press Enter to enter the passphrase again.")
        } else {
            advice.append("Press Enter to try again.")
        }
        return RestrictedInfo(title: title, protection: opened.protectionName ?? opened.publication.protectionName,
                              message: message, advice: advice, canRetry: canRetry)
    }

    // MARK: - The reader

    func textColumn(columns: Int) -> TextColumn {
        TextColumn(windowWidth: columns, maximumWidth: config.textWidth > 0 ? config.textWidth : nil, minimumMargin: config.margin)
    }

    func layoutOptions(width: Int, figures: Bool = false) -> LayoutOptions {
        var options = LayoutOptions(width: width, justify: config.justify, paragraphIndent: config.paragraphIndent,
                                    paragraphSpacing: config.paragraphSpacing)
        options.bidi = config.bidi
        if figures {
            let cell = pictureOutput.cell
            options.pictureCell = LayoutOptions.PictureCellSize(width: cell.width, height: cell.height)
            options.maxPictureRows = max(3, screen.size.rows - 4)
        }
        return options
    }

    func startReader(_ opened: OpenedPublication, path: String, entry: LibraryEntry?) {
        let (rows, columns) = screen.size
        let column = textColumn(columns: columns)
        let pages = makePictureDisplay(for: opened.publication)
        let figures = pages == nil ? makeFigureDisplay(for: opened.publication) : nil
        warmUpPicturesIfNeeded(for: opened.publication, drawsPictures: pages != nil || figures != nil)
        let session = ReaderSession(opened: opened, entry: entry, options: layoutOptions(width: column.width, figures: figures != nil),
                                    column: column, rows: max(1, rows - 1), measuresPictures: figures != nil)
        session.path = path
        session.pictures = pages
        session.figures = figures
        page = .reader(session)
        let publication = opened.publication
        guard session.source.count > 0 else {
            page = .failure(title: session.title, message: "This publication has nothing to read (its reading order is empty).")
            publication.close()
            return
        }
        let library = dependencies.library
        let identifier = publication.metadata.identifier
        session.loading = Task { @MainActor [weak self] in
            // The saved position, by content identity: a moved file keeps its place.
            let identity = await Blocking.run { entry?.identity ?? ContentIdentity.of(path: path, identifier: identifier) }
            let stored = (identity: identity, entry: try? await library?.entry(identity: identity))
            guard let self, case .reader(let current) = self.page, current === session else { return }
            session.identity = stored.identity
            session.entry = stored.entry ?? entry
            self.loadPace(session)
            var chapter = 0
            var anchor = ReaderState.Anchor.start
            let requested = self.openingAt
            self.openingAt = nil
            if let locator = requested, let index = session.chapterIndex(of: locator.href) {
                // A place chosen from outside (a library search): shown, then saved as the position.
                chapter = index
                anchor = .locator(locator)
            } else if let json = session.entry?.locator, let locator = Locator(jsonString: json), let index = session.chapterIndex(of: locator.href) {
                chapter = index
                session.resumeLocator = locator
                // An audiobook's locator is a time in the track, not a place on its page.
                anchor = publication.isAudiobook ? .start : .locator(locator)
            }
            self.load(session, chapter: chapter, anchor: anchor)
        }
    }

    /// Loads and lays out chapter `chapter` off the main actor, then shows it at `anchor`.
    ///
    /// A chapter opened at its start is shown as soon as its first few screens are converted
    /// (``ChapterSource/document(_:firstPartLength:firstPart:)``): the rest is converted and laid
    /// out meanwhile, then replaces it, keeping the line read in view. Until then, paging past
    /// the first part waits for the rest rather than leaving the chapter.
    func load(_ session: ReaderSession, chapter: Int, anchor: ReaderState.Anchor) {
        let source = session.source
        guard chapter >= 0, chapter < source.count else { return }
        if let partial = session.partialChapter, partial == session.state.chapter, chapter == partial + 1, anchor == .start,
           session.loadingChapter == partial {
            session.pageDownWaiting = true
            message = "The rest of this chapter is still being read…"
            render()
            return
        }
        session.loading?.cancel()
        session.loadingChapter = chapter
        session.partialChapter = nil
        session.pageDownWaiting = false
        // A page's picture is decoded while its chapter loads, not after.
        requestPictures(session, page: chapter)
        let options = session.options
        let preloaded = session.preloaded?.chapter == chapter ? session.preloaded?.document : nil
        let firstPartLength = anchor == .start && preloaded == nil && !source.isPaged
            ? max(8_000, options.width * session.state.rows * 3) : nil
        session.loading = Task { @MainActor [weak self] in
            let app = self
            let (document, layout) = await Blocking.run { () -> (TextDocument, LaidOutDocument) in
                let document: TextDocument
                if let preloaded {
                    document = preloaded
                } else if let firstPartLength {
                    document = source.document(chapter, firstPartLength: firstPartLength) { part in
                        let layout = LayoutEngine.layout(part, options: options)
                        Task { @MainActor in app?.showFirstPart(part, layout: layout, of: session, chapter: chapter) }
                    }
                } else {
                    document = source.document(chapter)
                }
                return (document, LayoutEngine.layout(document, options: options))
            }
            guard !Task.isCancelled, let self, case .reader(let current) = self.page, current === session,
                  session.loadingChapter == chapter else { return }
            session.loadingChapter = nil
            session.document = document
            if session.partialChapter == chapter, session.state.chapter == chapter {
                // The whole chapter replaces its first part: same offsets, same line in view.
                session.partialChapter = nil
                session.state.relayout(layout)
                if session.pageDownWaiting {
                    session.pageDownWaiting = false
                    self.message = nil
                    _ = session.state.perform(.pageDown)
                }
            } else {
                session.partialChapter = nil
                session.selection = nil
                session.hints = nil
                session.state.show(chapter: chapter, layout: layout, anchor: anchor)
            }
            self.updateSearchMatches(session)
            self.render()
            self.chapterShown(session)
        }
    }

    /// Shows the first part of chapter `chapter` while the rest of it loads, unless that load
    /// was given up or the whole chapter came first.
    private func showFirstPart(_ part: TextDocument, layout: LaidOutDocument, of session: ReaderSession, chapter: Int) {
        guard case .reader(let current) = page, current === session, session.loadingChapter == chapter,
              session.partialChapter == nil, session.loading?.isCancelled == false else { return }
        session.partialChapter = chapter
        session.selection = nil
        session.hints = nil
        session.document = part
        session.state.show(chapter: chapter, layout: layout, anchor: .start)
        updateSearchMatches(session)
        render()
        // Bookmarks and positions need the library entry: made at the first paint, whole or not.
        ensureEntry(session)
    }

    /// After a chapter is on screen: the first time, the book-wide work starts; each time,
    /// the position is saved and the next chapter read ahead.
    func chapterShown(_ session: ReaderSession) {
        let firstPaint = !session.firstPaintDone
        if firstPaint {
            session.firstPaintDone = true
            ensureEntry(session)
            readTableOfContents(session)
        }
        savePosition(session)
        requestPictures(session)
        let next = session.state.chapter + 1
        let source = session.source
        var readAhead: Task<Void, Never>?
        if next < source.count, session.preloaded?.chapter != next {
            readAhead = Task { @MainActor in
                let document = await Blocking.runInBackground { source.load(next) }
                if let document, !Task.isCancelled { session.preloaded = (next, document) }
            }
            session.background.append(readAhead!)
        }
        // The book-wide pass after the read-ahead: one chapter in memory at a time besides
        // the one shown keeps the reader's peak memory down.
        if firstPaint { startBookPass(session, after: readAhead) }
    }

    /// Reads the table of contents off the main actor when the parser left it for later (an
    /// EPUB's navigation), then shows the chapter titles it gives.
    func readTableOfContents(_ session: ReaderSession) {
        let publication = session.publication
        guard !publication.manifest.isNavigationBuilt else { return }
        session.background.append(Task { @MainActor [weak self] in
            let contents = await Blocking.runInBackground { TableOfContentsIndex(publication.tableOfContents) }
            guard !Task.isCancelled else { return }
            session.contents = contents
            self?.render()
        })
    }

    /// Adds the publication to the library when it is not there yet (`lectern open`).
    func ensureEntry(_ session: ReaderSession) {
        guard session.entry == nil, !session.entryRequested, let library = dependencies.library,
              let identity = session.identity else { return }
        session.entryRequested = true
        let opened = session.opened, path = session.path
        let publication = opened.publication
        let candidate = LibraryEntry(identity: identity, path: path, title: publication.metadata.title ?? LibraryImporter.fileName(path),
                                     author: publication.metadata.authors.map(\.name).joined(separator: ", "), format: opened.format,
                                     protection: ProtectionMark(scheme: publication.contentProtectionService?.scheme),
                                     licenseID: opened.licenseID)
        session.background.append(Task { @MainActor in
            let stored = try? await library.add(candidate)
            if session.entry == nil { session.entry = stored }
            self.savePosition(session)
        })
    }

    /// Counts the text of every chapter in the background (or reads the count cached for
    /// this content), for book percentages; the status line shows "—" until then.
    func startBookPass(_ session: ReaderSession, after readAhead: Task<Void, Never>?) {
        let library = dependencies.library
        let source = session.source, identity = session.identity
        // Decrypted text never reaches the disk: only unprotected books are cached.
        let cacheable = session.publication.contentProtectionService == nil
        session.background.append(Task { @MainActor [weak self] in
            await readAhead?.value
            if let identity, let cached = try? await library?.textLengths(identity: identity), cached.count == source.count {
                session.state.chapterLengths = cached
                self?.render()
            }
            // Every chapter's text for search (and its length): from the cache, else converted.
            var texts: [String]? = nil
            if cacheable, let identity {
                texts = await Blocking.runInBackground { BookTextCache.read(identity: identity, count: source.count) }
            }
            let fromCache = texts != nil
            var lengths: [Int] = []
            // A chapter that cannot be read counts as empty for now, but nothing is kept for
            // the next opening, which tries again.
            var unreadable = false
            for index in 0..<source.count {
                if Task.isCancelled { return }
                let cachedText = texts?[index]
                // A long chapter on screen, once whole, is not converted a second time: it would
                // be held twice at once. (Short ones are: the page shown for an audio track or an
                // unreadable chapter is not its text.)
                let shown = session.state.chapter == index && session.partialChapter == nil && session.loadingChapter == nil
                    && (session.document?.length ?? 0) > 100_000 ? session.document : nil
                let (searchable, failed) = await Blocking.runInBackground { () -> (SearchableText, Bool) in
                    if let cachedText { return (SearchableText(cachedText), false) }
                    guard let document = shown ?? source.load(index) else { return (SearchableText(""), true) }
                    return (SearchableText(document.plainText), false)
                }
                unreadable = unreadable || failed
                session.textIndex.set(searchable, chapter: index)
                lengths.append(searchable.length)
            }
            guard !Task.isCancelled else { return }
            guard !unreadable else {
                session.state.chapterLengths = lengths
                self?.render()
                return
            }
            if cacheable, !fromCache, let identity {
                let all = session.textIndex.chapters.map { $0?.text ?? "" }
                session.background.append(Task { await Blocking.runInBackground { BookTextCache.write(all, identity: identity) } })
            }
            let counted = lengths
            if session.state.chapterLengths != counted {
                session.state.chapterLengths = counted
                // Only a cache: a failed write costs a recount at the next opening.
                if let identity, let library { try? await library.setTextLengths(counted, identity: identity) }
                self?.render()
            }
        })
    }

    func savePosition(_ session: ReaderSession) {
        notePage(session)
        guard let library = dependencies.library, let id = session.entry?.id, let (locator, progress) = session.positionToSave else { return }
        // Queued now, not from a task: the library writes in the order it is asked, so the
        // newest position is the one kept, and closing the book (a write queued later) wins.
        library.queuePosition(id: id, locator: locator.jsonString, progress: progress) { error in
            Task { @MainActor [weak self] in
                self?.message = "Could not save the reading position: \(error.userMessage)"
                self?.render()
            }
        }
    }

    /// Closes the book, saving the position first (one small write, after those queued).
    func closeReader(_ session: ReaderSession, thenShelf: Bool) {
        if let library = dependencies.library, let id = session.entry?.id, let (locator, progress) = session.positionToSave,
           case .failure(let error) = Result(catching: { () throws(LibraryError) in
               try library.savePositionNow(id: id, locator: locator.jsonString, progress: progress)
           }) {
            // Shown on the bookshelf, or printed when the program ends with the book.
            if thenShelf { shelf.message = "Could not save the reading position: \(error.userMessage)" }
            else { Self.printError("could not save the reading position: \(error.userMessage)") }
        }
        recordReadingSession(session)
        session.cancelAll()
        session.publication.close()
        if thenShelf { page = .shelf }
    }

    /// Lays the chapter out again for the new window size, keeping the first line's place.
    func relayout(_ session: ReaderSession, force: Bool = false) {
        let (rows, columns) = screen.size
        session.state.rows = max(1, rows - 1)
        let column = textColumn(columns: columns)
        // Pictures in the text are as tall as the window allows: its height matters too.
        let options = layoutOptions(width: column.width, figures: session.figures != nil)
        guard force || column != session.column || options != session.options else { return }
        session.column = column
        session.options = options
        session.preloaded = nil
        guard let document = session.document else { return }
        session.relayoutGeneration += 1
        let generation = session.relayoutGeneration
        Task { @MainActor [weak self] in
            let layout = await Blocking.run { LayoutEngine.layout(document, options: options) }
            guard generation == session.relayoutGeneration, session.document?.href == document.href else { return }
            session.state.relayout(layout)
            // The labels name places of the old layout.
            session.hints = nil
            self?.render()
        }
    }

    // MARK: - Keys

    func handleReader(_ key: Key, session: ReaderSession) {
        if handleHintKeys(key, session: session) { return }
        if session.selection != nil {
            handleSelection(key, session: session)
            return
        }
        if key == .control("c") { backFromReader(); return }
        if case .character(let character) = key, config.keyMap.action(for: key) == nil || !session.state.pendingCount.isEmpty,
           session.state.takeCountDigit(character) {
            return
        }
        guard let action = config.keyMap.action(for: key) else {
            session.state.clearCount()
            // Escape clears (the message went with the key; the search's highlights go too)
            // and never leaves the book: q does.
            if key == .escape, session.search != nil {
                session.search = nil
            }
            return
        }
        let count = session.state.takeCount()
        if handlePictureAction(action, count: count, session: session) { return }
        switch action {
        case .quit:
            backFromReader()
        case .help:
            overlays.append(.help(HelpState(keyMap: config.keyMap)))
        case .tableOfContents:
            let href = session.source.isPaged ? nil : Optional(session.currentTOCEntry?.href ?? session.source.href(session.state.chapter))
            overlays.append(.toc(TOCState(tableOfContents: session.publication.tableOfContents, currentHref: href,
                                          visibleRows: PopupViews.listRows(windowRows: screen.size.rows))))
        case .search:
            overlays.append(.prompt(PromptState(kind: .search)))
        case .command:
            overlays.append(.prompt(PromptState(kind: .command)))
        case .goToPercent:
            if let count { recordJump(session); apply(session.state.go(toPercent: Double(min(count, 100))), session) } else { overlays.append(.prompt(PromptState(kind: .percent))) }
        case .searchNext:
            searchStep(session, forward: true)
        case .searchPrevious:
            searchStep(session, forward: false)
        case .searchResults:
            showSearchResults(session)
        case .addBookmark:
            addBookmark(session)
        case .bookmarks:
            showBookmarks(session)
        case .hints:
            startHints(session)
        case .followNote:
            followNote(session, number: count ?? 1)
        case .jumpBack:
            stepJump(session, forward: false)
        case .jumpForward:
            stepJump(session, forward: true)
        case .nextTheme:
            nextTheme()
        case .narrower, .wider, .toggleJustify, .toggleIndent, .cycleMargin, .cycleSpacing:
            changeLayoutSetting(action, session: session)
        case .lookUp:
            lookUpWord(session)
        case .select:
            startSelection(session)
        case .placeCursor:
            startSelection(session, cursor: true)
        case .print:
            startPrint(session)
        case .openInBrowser:
            openInBrowser(session)
        case .playPause, .seekForward, .seekBackward, .seekForwardLong, .seekBackwardLong, .nextAudioChapter,
             .previousAudioChapter, .faster, .slower:
            handleAudio(action, session: session)
        case .nextChapter where session.playback != nil, .previousChapter where session.playback != nil:
            // While listening, ] and [ change the track playing; the page follows it.
            handleAudio(action, session: session)
        case .openImage:
            if !openImage(session) { message = "No picture on this page." }
        case .redraw:
            screen.invalidate()
            picturesInvalidated()
        case .start, .end:
            recordJump(session)
            apply(session.state.perform(action, count: count), session)
        default:
            apply(session.state.perform(action, count: count), session)
        }
    }

    func apply(_ effect: ReaderState.Effect, _ session: ReaderSession) {
        notePage(session)
        switch effect {
        case .none: break
        case .load(let chapter, let anchor): load(session, chapter: chapter, anchor: anchor)
        case .message(let text): message = text
        }
    }

    /// Goes to `href` (a chapter, with or without a fragment).
    func jump(_ session: ReaderSession, to href: String) {
        guard let chapter = session.chapterIndex(of: href) else {
            message = "Not in the reading order: \(href)"
            return
        }
        let anchor: ReaderState.Anchor = Href.fragment(of: href).map { .fragment($0) } ?? .start
        if chapter == session.state.chapter, session.loadingChapter == nil {
            session.state.move(to: anchor)
            savePosition(session)
        } else {
            load(session, chapter: chapter, anchor: anchor)
        }
    }

    func jump(_ session: ReaderSession, to locator: Locator) {
        guard let chapter = session.chapterIndex(of: locator.href) else { return }
        if chapter == session.state.chapter, session.loadingChapter == nil {
            session.state.move(to: .locator(locator))
            savePosition(session)
        } else {
            load(session, chapter: chapter, anchor: .locator(locator))
        }
    }
}
