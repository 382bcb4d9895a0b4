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
        case .failure(let failure):
            guard let restriction = failure.restriction else {
                page = .failure(title: title, message: failure.message)
                return
            }
            page = .restricted(RestrictedInfo(title: title, protection: nil, restriction: restriction,
                                              credentialsCancelled: credentialsCancelled), retry: (path, entry))
        case .success(let opened):
            let publication = opened.publication
            do {
                try RenderingPermission.checkDisplay(publication)
            } catch {
                // Only a restriction refuses display; copy limits refuse writing text out.
                let restriction = switch error {
                case .restricted(let restriction): restriction
                case .copyLimited: ProtectionRestriction.unavailable(.unexplained(error.userMessage))
                }
                page = .restricted(RestrictedInfo(title: publication.metadata.title ?? title,
                                                  protection: opened.protectionName ?? publication.protectionName,
                                                  restriction: restriction, credentialsCancelled: credentialsCancelled),
                                   retry: (path, entry))
                publication.close()
                return
            }
            rememberUnlocked(opened, path: path, entry: entry)
            startReader(opened, path: path, entry: entry, at: locator)
        }
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
        page = .reader(ReaderScreen(book: book, keyMap: config.keyMap))
        let publication = opened.publication
        guard book.source.count > 0 else {
            page = .failure(title: book.title, message: "This publication has nothing to read (its reading order is empty).")
            publication.close()
            return
        }
        let library = dependencies.library
        let identifier = publication.metadata.identifier
        book.identityLookup = book.tasks.start(.opening) { [weak self, weak book] in
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
            if case .locator = anchor,
               let cached = await self.cachedChapterLengths(book, identity: identity, partial: { book.state.lengthsCountedSoFar = $0 }),
               !Task.isCancelled {
                // Counted at an earlier opening (only a cache: without it the chapter is waited
                // for whole): a long chapter is shown as soon as its text up to the saved place
                // is read, and the book percentage is there on the first page.
                book.state.chapterLengths = cached
                await self.loadCachedCheckpoints(book, identity: identity)
            }
            // A page turned while the place was looked up (a key pressed as soon as the first
            // page number showed) is kept when there is no saved place to go to instead.
            if case .start = anchor, chapter == 0, book.loadingChapter != nil || book.state.chapter != 0 { return }
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
            loadAnnotations(book)
            scheduleAnnotationRefresh(book)
            pullSyncedPlace(book)
        }
        savePosition(book)
        reanchorHighlights(book)
        if let length = book.document?.length { rememberLength(length, ofChapter: book.state.chapter, book) }
        rememberCheckpoints(book)
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
            await Blocking.runInBackground { TableOfContentsIndex(publication.contents) }
        }, then: { [weak self, weak book] contents in
            book?.contents = contents
            self?.render()
        })
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
}
