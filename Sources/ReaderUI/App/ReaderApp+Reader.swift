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
            self.opened(result, path: path, entry: entry, at: locator)
            self.render()
        }
    }

    /// Shows the publication opened (at `locator`, else where the person left it), or why it did not open.
    func opened(_ result: Result<OpenedPublication, OpenFailure>, path: String, entry: LibraryEntry?, at locator: Locator?) {
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
            startReader(opened, path: path, entry: entry, at: locator)
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

    func startReader(_ opened: OpenedPublication, path: String, entry: LibraryEntry?, at requested: Locator?) {
        let (rows, columns) = screen.size
        let column = textColumn(columns: columns)
        let pages = makePictureDisplay(for: opened.publication)
        let figures = pages == nil ? makeFigureDisplay(for: opened.publication) : nil
        warmUpPicturesIfNeeded(for: opened.publication, drawsPictures: pages != nil || figures != nil)
        let book = BookController(opened: opened, entry: entry, options: layoutOptions(width: column.width, figures: figures != nil),
                                    column: column, rows: max(1, rows - 1), measuresPictures: figures != nil)
        book.path = path
        book.pictures = pages
        book.figures = figures
        page = .reader(book)
        let publication = opened.publication
        guard book.source.count > 0 else {
            page = .failure(title: book.title, message: "This publication has nothing to read (its reading order is empty).")
            publication.close()
            return
        }
        let library = dependencies.library
        let identifier = publication.metadata.identifier
        book.tasks.start(.opening) { [weak self, weak book] in
            // The saved position, by content identity: a moved file keeps its place.
            let identity = await Blocking.run { entry?.identity ?? ContentIdentity.of(path: path, identifier: identifier) }
            var stored: LibraryEntry?, failure: LibraryError?
            do throws(LibraryError) { stored = try await library?.entry(identity: identity) } catch { failure = error }
            guard let self, let book, !Task.isCancelled else { return }
            book.identity = identity
            book.entry = stored ?? entry
            if let failure {
                Self.log.warning("reading the library entry of \(path) failed: \(failure.userMessage)")
                if entry == nil {
                    // The stored place is unknown: the book opens at the start, and no entry is
                    // added or position saved that would overwrite the one kept.
                    book.entryRequested = true
                    self.message = "The library could not be read: \(failure.userMessage); the book opens at the start and its place will not be saved"
                } else {
                    self.message = "The library could not be read: \(failure.userMessage)"
                }
            }
            self.loadPace(book)
            var chapter = 0
            var anchor = ReaderState.Anchor.start
            if let locator = requested, let index = book.chapterIndex(of: locator.href) {
                // A place chosen from outside (a library search): shown, then saved as the position.
                chapter = index
                anchor = .locator(locator)
            } else if let json = book.entry?.locator, let locator = Locator(jsonString: json), let index = book.chapterIndex(of: locator.href) {
                chapter = index
                book.resumeLocator = locator
                // An audiobook's locator is a time in the track, not a place on its page.
                anchor = publication.isAudiobook ? .start : .locator(locator)
            }
            if case .locator = anchor, let cached = await self.cachedChapterLengths(book, identity: identity), !Task.isCancelled {
                // Counted at an earlier opening (only a cache: without it the chapter is waited
                // for whole): a long chapter is shown as soon as its text up to the saved place
                // is read, and the book percentage is there on the first page.
                book.state.chapterLengths = cached
            }
            self.load(book, chapter: chapter, anchor: anchor)
        }
    }

    /// Said while a movement waits for the rest of a chapter shown from its first part.
    static let restBeingRead = "The rest of this chapter is still being read…"

    /// Shows chapter `chapter` at `anchor` once the book has loaded it
    /// (``BookController/loadChapter(_:at:then:)``): a long chapter opened at its start shows
    /// its first part at once, and paging past that part waits for the rest rather than
    /// leaving the chapter.
    func load(_ book: BookController, chapter: Int, anchor: ReaderState.Anchor) {
        guard chapter >= 0, chapter < book.source.count else { return }
        if book.waitsForRest(beforeShowing: chapter, at: anchor) {
            message = Self.restBeingRead
            render()
            return
        }
        // A page's picture is decoded while its chapter loads, not after.
        requestPictures(book, page: chapter)
        book.loadChapter(chapter, at: anchor) { [weak self] book, arrival in
            guard let self else { return }
            if arrival == .whole(carriedOut: true) { self.message = nil }
            self.updateSearchMatches(book)
            self.render()
            if arrival == .firstPart {
                // Bookmarks and positions need the library entry: made at the first paint, whole or not.
                self.ensureEntry(book)
            } else {
                self.chapterShown(book)
            }
        }
    }

    /// After a chapter is on screen: the first time, the book-wide work starts; each time,
    /// the position is saved and the next chapter read ahead.
    func chapterShown(_ book: BookController) {
        let firstPaint = !book.firstPaintDone
        if firstPaint {
            book.firstPaintDone = true
            ensureEntry(book)
            readTableOfContents(book)
        }
        savePosition(book)
        requestPictures(book)
        let readAhead = book.readAhead(book.state.chapter + 1)
        // The book-wide pass after the read-ahead: one chapter in memory at a time besides
        // the one shown keeps the reader's peak memory down.
        if firstPaint { startBookPass(book, after: readAhead) }
    }

    /// Reads the table of contents off the main actor when the parser left it for later (an
    /// EPUB's navigation), then shows the chapter titles it gives.
    func readTableOfContents(_ book: BookController) {
        let publication = book.publication
        guard !publication.manifest.isNavigationBuilt else { return }
        book.tasks.start(.tableOfContents, computing: {
            await Blocking.runInBackground { TableOfContentsIndex(publication.tableOfContents) }
        }, then: { [weak self, weak book] contents in
            book?.contents = contents
            self?.render()
        })
    }

    /// Adds the publication to the library when it is not there yet (`lectern open`).
    func ensureEntry(_ book: BookController) {
        guard book.entry == nil, !book.entryRequested, let library = dependencies.library,
              let identity = book.identity else { return }
        book.entryRequested = true
        let opened = book.opened, path = book.path
        let publication = opened.publication
        let candidate = LibraryEntry(identity: identity, path: path, title: publication.metadata.title ?? LibraryImporter.fileName(path),
                                     author: publication.metadata.authors.map(\.name).joined(separator: ", "), format: opened.format,
                                     protection: ProtectionMark(scheme: publication.contentProtectionService?.scheme),
                                     licenseID: opened.licenseID)
        book.tasks.start(.libraryEntry) { [weak self, weak book] in
            let stored: Result<LibraryEntry, LibraryError>
            do throws(LibraryError) { stored = .success(try await library.add(candidate)) } catch { stored = .failure(error) }
            guard let self, let book, !Task.isCancelled else { return }
            switch stored {
            case .success(let entry):
                if book.entry == nil { book.entry = entry }
                self.savePosition(book)
            case .failure(let error):
                // Without an entry neither positions nor bookmarks can be saved: say so.
                Self.log.warning("adding \(path) to the library failed: \(error.userMessage)")
                self.message = "This book could not be added to the library: \(error.userMessage); its place will not be kept"
                self.render()
            }
        }
    }

    /// The chapter lengths counted at an earlier opening of this content, when the library
    /// has them for every chapter (only a cache: nil when absent or unreadable).
    func cachedChapterLengths(_ book: BookController, identity: String) async -> [Int]? {
        guard let cached = try? await dependencies.library?.textLengths(identity: identity),
              cached.count == book.source.count else { return nil }
        return cached
    }

    /// Counts the text of every chapter in the background (or reads the count cached for
    /// this content), for book percentages; the status line shows "—" until then.
    func startBookPass(_ book: BookController, after readAhead: Task<Void, Never>?) {
        let library = dependencies.library
        let source = book.source, identity = book.identity
        // Decrypted text never reaches the disk: only unprotected books are cached.
        let cacheable = book.publication.contentProtectionService == nil
        book.tasks.start(.textIndex) { [weak self, weak book] in
            guard let book else { return }
            await readAhead?.value
            if book.state.chapterLengths == nil, let identity, let cached = await self?.cachedChapterLengths(book, identity: identity),
               !Task.isCancelled {
                book.state.chapterLengths = cached
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
                let shown = book.state.chapter == index && book.partialChapter == nil && book.loadingChapter == nil
                    && (book.document?.length ?? 0) > 100_000 ? book.document : nil
                let (searchable, failed) = await Blocking.runInBackground { () -> (SearchableText, Bool) in
                    if let cachedText { return (SearchableText(cachedText), false) }
                    guard let document = shown ?? source.load(index) else { return (SearchableText(""), true) }
                    return (SearchableText(document.plainText), false)
                }
                unreadable = unreadable || failed
                book.textIndex.set(searchable, chapter: index)
                lengths.append(searchable.length)
            }
            guard !Task.isCancelled else { return }
            guard !unreadable else {
                book.state.chapterLengths = lengths
                self?.render()
                return
            }
            if cacheable, !fromCache, let identity {
                let all = book.textIndex.chapters.map { $0?.text ?? "" }
                book.tasks.start(nil) { await Blocking.runInBackground { BookTextCache.write(all, identity: identity) } }
            }
            let counted = lengths
            if book.state.chapterLengths != counted {
                book.state.chapterLengths = counted
                // Only a cache: a failed write costs a recount at the next opening.
                if let identity, let library { try? await library.setTextLengths(counted, identity: identity) }
                self?.render()
            }
        }
    }

    /// Lays the chapter out again for the new window size, keeping the first line's place.
    func relayout(_ book: BookController, force: Bool = false) {
        let (rows, columns) = screen.size
        book.state.rows = max(1, rows - 1)
        let column = textColumn(columns: columns)
        // Pictures in the text are as tall as the window allows: its height matters too.
        let options = layoutOptions(width: column.width, figures: book.figures != nil)
        guard force || column != book.column || options != book.options else { return }
        book.column = column
        book.layOutAgain(with: options) { [weak self] in self?.render() }
    }

    // MARK: - Keys

    func handleReader(_ key: Key, book: BookController) {
        if handleHintKeys(key, book: book) { return }
        if book.selection != nil {
            handleSelection(key, book: book)
            return
        }
        if key == .control("c") { backFromReader(); return }
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
            overlays.append(.help(HelpState(keyMap: config.keyMap)))
        case .tableOfContents:
            let href = book.source.isPaged ? nil : Optional(book.currentTOCEntry?.href ?? book.source.href(book.state.chapter))
            overlays.append(.toc(TOCState(tableOfContents: book.publication.tableOfContents, currentHref: href,
                                          visibleRows: PopupViews.listRows(windowRows: screen.size.rows))))
        case .search:
            overlays.append(.prompt(PromptState(kind: .search)))
        case .command:
            overlays.append(.prompt(PromptState(kind: .command)))
        case .goToPercent:
            if let count { recordJump(book); apply(book.state.go(toPercent: Double(min(count, 100))), book) } else { overlays.append(.prompt(PromptState(kind: .percent))) }
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
        case .openImage:
            if !openImage(book) { message = "No picture on this page." }
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
        }
    }

    /// Goes to `href` (a chapter, with or without a fragment).
    func jump(_ book: BookController, to href: String) {
        guard let chapter = book.chapterIndex(of: href) else {
            message = "Not in the reading order: \(href)"
            return
        }
        let anchor: ReaderState.Anchor = Href.fragment(of: href).map { .fragment($0) } ?? .start
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
