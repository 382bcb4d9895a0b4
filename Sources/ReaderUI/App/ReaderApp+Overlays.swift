import Bookshelf
import FoundationEssentials
import Shared
import Terminal
import TextLayout

extension ReaderApp {
    var currentBook: BookController? {
        if case .reader(let reader) = page { return reader.book }
        return nil
    }

    /// Gives `key` to the layer on top of the focus stack; false when it let the key through.
    func handleOverlay(_ key: Key) -> Bool {
        guard let layer = overlays.popLast() else { return false }
        return handle(key, screen: layer)
    }

    func submit(_ kind: PromptState.Kind, text: String) {
        guard let book = currentBook else { return }
        switch kind {
        case .search:
            let query = text.isEmpty ? book.search?.query ?? "" : text
            guard !query.isEmpty else { return }
            book.search = SearchState(query: query)
            searchStep(book, forward: true)
        case .printRange(let count, let current):
            choosePrintRange(book, text: text, pageCount: count, current: current)
        case .printFile(let job):
            printToFile(book, job: job, path: text.trimmed)
        case .percent:
            guard let value = Double(text.trimmed.hasSuffix("%") ? String(text.trimmed.dropLast()) : text.trimmed), value.isFinite else {
                message = "Not a percentage: \(text)"
                return
            }
            recordJump(book)
            apply(book.state.go(toPercent: value), book)
        case .command:
            if readAloudCommand(text, book: book) { return }
            // A PDF's page labels ("iv", "12") go to that page.
            if book.source.isPaged, !text.contains("%"), let index = book.source.pageIndex(forLabel: text.trimmed) {
                recordJump(book)
                load(book, chapter: index, anchor: .start)
                return
            }
            // A book with a page list: a number (or label) is a printed page.
            if !book.printedPages.isEmpty, !text.contains("%"), ReaderCommand(text).map({ if case .goToChapter = $0 { true } else { false } }) ?? true {
                goToPrintedPage(book, label: text)
                return
            }
            switch ReaderCommand(text) {
            case .goToPercent(let value)?:
                recordJump(book)
                apply(book.state.go(toPercent: value), book)
            case .goToChapter(let number)?:
                recordJump(book)
                load(book, chapter: min(number, book.state.chapterCount) - 1, anchor: .start)
            case .quit?: backFromReader()
            case .help?: overlays.append(HelpScreen(help: HelpState(keyMap: config.keyMap)))
            case nil: message = "Unknown command: \(text) (try :50% or :q)"
            }
        }
    }

    // MARK: - Search

    /// The matches of the chapter shown, for highlighting.
    func updateSearchMatches(_ book: BookController) {
        guard var search = book.search, let document = book.document else { return }
        if search.chapterOfMatches != book.state.chapter {
            let searchable = book.textIndex.inMemory(book.state.chapter) ?? SearchableText(document.plainText)
            search.chapterMatches = (try? searchable.ranges(of: search.parsed.text, options: search.parsed.options, limit: 10_000)) ?? []
            search.chapterOfMatches = book.state.chapter
            book.search = search
        }
    }

    /// Finds the next (or previous) match from the match shown, or from the page when the
    /// match is not on it, through the following chapters and around. Chapters come from the
    /// book's text index (``BookController/textIndex``); those it does not hold yet are read.
    func searchStep(_ book: BookController, forward: Bool) {
        guard let search = book.search else {
            message = "No search yet: press / to search."
            return
        }
        let state = book.state
        var origin = (chapter: state.chapter, offset: forward ? state.topOffset : state.topOffset - 1)
        if let current = search.current, current.chapter == state.chapter,
           let layout = state.layout, let line = layout.lineIndex(containing: current.range.lowerBound), state.visibleLines.contains(line) {
            origin = (current.chapter, forward ? current.range.lowerBound + 1 : current.range.lowerBound - 1)
        } else if let current = search.current, current.chapter == book.loadingChapter {
            // The match's chapter is still being laid out: go on from the match, not from the page left.
            origin = (current.chapter, forward ? current.range.lowerBound + 1 : current.range.lowerBound - 1)
        }
        let query = search.parsed
        let source = book.source
        let index = book.textIndex
        message = "Searching for “\(TextFitting.isolated(search.query))”…"
        book.tasks.start(.search) { [weak self, weak book] in
            let count = source.count
            var found: (chapter: Int, range: Range<Int>, wrapped: Bool)?
            var failure: TextSearchError?
            for step in 0...count {
                if Task.isCancelled { return }
                let chapter = ((origin.chapter + (forward ? step : -step)) % count + count) % count
                // The index as it is now (the book pass adds chapters meanwhile): a chapter the
                // pass is about to add is waited for rather than converted twice at once.
                while let book, book.tasks.isRunning(.textIndex), !Task.isCancelled,
                      let next = book.textIndex.firstMissing, (next...(next + 8)).contains(chapter) {
                    try? await Task.sleep(for: .milliseconds(20))
                }
                let current = book?.textIndex ?? index
                let result = await Blocking.run { () -> Result<[Range<Int>], TextSearchError> in
                    do throws(TextSearchError) {
                        if let ranges = try current.ranges(inChapter: chapter, of: query.text, options: query.options) { return .success(ranges) }
                        return .success(try SearchableText(source.load(chapter)?.plainText ?? "").ranges(of: query.text, options: query.options))
                    } catch {
                        return .failure(error)
                    }
                }
                let ranges: [Range<Int>]
                switch result {
                case .success(let value): ranges = value
                case .failure(let error): failure = error
                    ranges = []
                }
                if failure != nil { break }
                guard !ranges.isEmpty else { continue }
                let pick: Range<Int>?
                if step == 0 {
                    pick = forward ? ranges.first { $0.lowerBound >= origin.offset } : ranges.last { $0.lowerBound <= origin.offset }
                } else {
                    pick = forward ? ranges.first : ranges.last
                }
                if let pick {
                    let wrapped = forward ? (chapter < origin.chapter || (chapter == origin.chapter && step > 0))
                        : (chapter > origin.chapter || (chapter == origin.chapter && step > 0))
                    found = (chapter, pick, wrapped)
                    break
                }
            }
            guard let self, let book, !Task.isCancelled else { return }
            if let failure {
                self.message = "Cannot search: \(failure.userMessage)"
                self.render()
                return
            }
            guard let found else {
                self.message = "No match for “\(TextFitting.isolated(search.query))” in the book."
                self.render()
                return
            }
            book.search?.current = (found.chapter, found.range)
            self.recordJump(book)
            // Which match of the book it is, when the whole book's text is in.
            let complete = book.textIndex
            if complete.isComplete {
                var hits = book.search?.bookMatches ?? []
                if book.search?.bookMatches == nil {
                    hits = await Blocking.run { (try? complete.matches(query.text, options: query.options)) ?? [] }
                    guard !Task.isCancelled else { return }
                    book.search?.bookMatches = hits
                }
                book.search?.total = hits.count
                book.search?.ordinal = hits.firstIndex { $0.chapter == found.chapter && $0.range == found.range }.map { $0 + 1 }
            }
            if found.chapter == book.state.chapter {
                book.reveal(offset: found.range.lowerBound)
                self.updateSearchMatches(book)
                self.savePosition(book)
            } else {
                self.load(book, chapter: found.chapter, anchor: .offset(found.range.lowerBound))
            }
            var position = ""
            if let total = book.search?.total, let ordinal = book.search?.ordinal {
                position = " \(ordinal)/\(total >= 10_000 ? "10000+" : String(total))"
            }
            // Named by the section the match is in (its chapter converted for that if need be).
            await book.loadEntryOffsets([found.chapter])
            guard !Task.isCancelled else { return }
            // The query and the section isolated: a Hebrew query's figures stay after it.
            let place = " · " + TextFitting.isolated(book.placeLabel(chapter: found.chapter, offset: found.range.lowerBound))
            self.message = "“\(TextFitting.isolated(search.query))”" + position + place
                + (found.wrapped ? (forward ? " (from the start)" : " (from the end)") : "")
                + " · n next · N previous · S all"
            self.render()
        }
    }

    /// Every match of the search in the book, in a list (the whole book once its text index
    /// is complete; until then, the chapters it holds).
    /// `replacingIncomplete`: the list is listed again (``listSearchResultsAgain(_:)``); the
    /// new one takes the old one's place only if that is still on top, and the old one stays
    /// until then — a key meanwhile (Escape) goes to it, never to the page beneath.
    func showSearchResults(_ book: BookController, replacingIncomplete: Bool = false) {
        guard let search = book.search else {
            message = "No search yet: press / to search."
            return
        }
        let index = book.textIndex
        let query = search.parsed
        book.tasks.start(.searchResults) { [weak self, weak book] in
            let result = await Blocking.run { () -> Result<[BookSearchHit], TextSearchError> in
                do throws(TextSearchError) { return .success(try index.search(query.text, options: query.options, limit: 2_000)) } catch {
                    return .failure(error)
                }
            }
            guard let book, !Task.isCancelled else { return }
            // Each match named by the section it is in.
            if case .success(let hits) = result { await book.loadEntryOffsets(hits.map(\.chapter)) }
            guard let self, !Task.isCancelled else { return }
            switch result {
            case .failure(let error):
                self.message = "Cannot search: \(error.userMessage)"
            case .success(let hits):
                if replacingIncomplete {
                    // Closed meanwhile: not opened again.
                    guard let shown = self.overlays.last as? SearchResultsScreen, !shown.state.complete else { return }
                    self.overlays.removeLast()
                }
                let rows = PopupViews.listRows(windowRows: self.screen.size.rows) - 1
                let labels = hits.map { book.placeLabel(chapter: $0.chapter, offset: $0.range.lowerBound) }
                self.overlays.append(SearchResultsScreen(state: SearchResultsState(query: search.query, hits: hits, labels: labels,
                                                                       complete: index.isComplete, visibleRows: rows)))
            }
            self.render()
        }
    }

    /// The list of matches (`S`) opened before the whole book was indexed is listed again once
    /// it is: it said "so far", and the matches in chapters indexed since now appear.
    func listSearchResultsAgain(_ book: BookController) {
        guard currentBook === book, let shown = overlays.last as? SearchResultsScreen, !shown.state.complete else { return }
        showSearchResults(book, replacingIncomplete: true)
    }

    // MARK: - Bookmarks

    func addBookmark(_ book: BookController) {
        guard let library = dependencies.library, let locator = book.state.currentLocator else {
            message = "Bookmarks need the library database."
            return
        }
        let progress = book.state.bookProgression ?? book.state.estimatedBookProgression
        let bookmark = book.isProtected
            ? BookmarksState.protectedBookmark(at: locator, chapterTitle: book.chapterTitle,
                                               chapterProgression: book.source.isPaged ? nil : book.state.chapterProgression,
                                               progress: progress)
            : BookmarksState.bookmark(at: locator, chapterTitle: book.chapterTitle, progress: progress)
        // Unkeyed, and not cut short by cancellation: the write completes even if the book
        // closes meanwhile; only the message is then dropped.
        let known = book.entry, identity = book.identity
        book.tasks.start(nil, computing: { () -> String in
            do throws(LibraryError) {
                // The entry may still be being added (`lectern open` of a new book).
                var entry = known
                if entry == nil, let identity {
                    entry = try await library.entry(identity: identity)
                }
                guard let id = entry?.id else { return "Could not add the bookmark (the book is not in the library yet)." }
                switch try await library.addBookmarkUnlessPresent(bookmark, publicationID: id) {
                case .added: return "Bookmark added (' lists them, r there names one)."
                case .alreadyThere: return "This page is already bookmarked (' lists them, d there deletes one)."
                }
            } catch {
                return "Could not add the bookmark: \(error.userMessage)"
            }
        }, then: { [weak self] message in
            self?.message = message
            self?.render()
        })
    }

    /// Deletes `bookmark` from the library (it already left the list shown).
    func deleteBookmark(_ bookmark: Bookmark, book: BookController) {
        guard let library = dependencies.library else { return }
        message = "Bookmark deleted."
        // A write to the library: it completes even if the book closes meanwhile (only the
        // message of a failure is then dropped).
        book.tasks.start(nil, computing: { () -> LibraryError? in
            do throws(LibraryError) {
                try await library.deleteBookmark(id: bookmark.id)
                return nil
            } catch {
                return error
            }
        }, then: { [weak self] error in
            guard let error else { return }
            self?.message = "Could not delete the bookmark: \(error.userMessage)"
            self?.render()
        })
    }

    /// Stores the new name of `bookmark` (the list shown already has it).
    func renameBookmark(_ bookmark: Bookmark, book: BookController) {
        guard let library = dependencies.library else { return }
        message = "Bookmark named."
        book.tasks.start(nil, computing: { () -> LibraryError? in
            do throws(LibraryError) { try await library.renameBookmark(id: bookmark.id, label: bookmark.label); return nil } catch { return error }
        }, then: { [weak self] error in
            guard let error else { return }
            self?.message = "Could not name the bookmark: \(error.userMessage)"
            self?.render()
        })
    }

    func showBookmarks(_ book: BookController) {
        guard let library = dependencies.library, let id = book.entry?.id else {
            overlays.append(BookmarksScreen(state: BookmarksState(bookmarks: [])))
            return
        }
        book.tasks.start(.bookmarks, computing: { () -> Result<[Bookmark], LibraryError> in
            do throws(LibraryError) { return .success(try await library.bookmarks(publicationID: id)) } catch { return .failure(error) }
        }, then: { [weak self] result in
            guard let self else { return }
            let bookmarks: [Bookmark]
            switch result {
            case .success(let list): bookmarks = list
            case .failure(let error):
                message = "Could not read the bookmarks: \(error.userMessage)"
                bookmarks = []
            }
            overlays.append(BookmarksScreen(state: BookmarksState(bookmarks: bookmarks, visibleRows: BookmarksScreen.listRows(windowRows: screen.size.rows))))
            render()
        })
    }

    // MARK: - Notes and links

    /// Opens the `number`-th note reference of the page in a popup (or follows the
    /// `number`-th link when the page has no note reference).
    func followNote(_ book: BookController, number: Int) {
        guard let layout = book.state.layout else { return }
        let targets = PageTarget.collect(in: layout, lines: book.state.visibleLines)
        let notes = targets.filter(\.isNote), links = targets.filter { !$0.isNote }
        if notes.count >= number {
            openNote(book, notes: notes, index: number - 1)
        } else if links.count >= number {
            follow(links[number - 1], among: targets, book: book)
        } else {
            message = "No note reference or link on this page."
        }
    }
}
