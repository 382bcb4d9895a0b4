import Bookshelf
import LibrarySearch
import Shared
import Terminal

extension ReaderApp {
    // MARK: - Library-wide full-text search

    /// Indexes the library's unprotected publications that are not yet, in the background
    /// (after imports, and for those an earlier run did not finish), one book at a time so
    /// that the reader keeps a core. Stopped when the program quits; resumed the next time.
    func indexLibraryInBackground() {
        guard indexing == nil, let library = dependencies.library else { return }
        let cancel = CancellationFlag()
        let indexer = LibraryIndexer(library: library, open: dependencies.open, parallelism: 1)
        let task = Task { @MainActor [weak self] in
            _ = await indexer.indexPending(isCancelled: { cancel.isCancelled })
            self?.indexing = nil
        }
        indexing = (task, cancel)
    }

    /// Searches the text of the library's books and lists the passages found.
    func searchLibrary(_ text: String) {
        guard let query = FullTextQuery(text) else {
            shelf.message = "Nothing to find in \"\(text)\": type a word."
            return
        }
        guard let library = dependencies.library else {
            shelf.message = "The library database cannot be opened."
            return
        }
        shelf.message = "Finding \"\(text)\"…"
        Task { @MainActor [weak self] in
            let result: Result<([FullTextHit], Int), LibraryError>
            do throws(LibraryError) {
                let hits = try await library.searchFullText(query, limit: 200)
                result = .success((hits, try await library.fullTextCoverage().pending))
            } catch {
                result = .failure(error)
            }
            let notes = await self?.notesMatching(text, library: library) ?? []
            guard let self, case .shelf = self.page else { return }
            self.shelf.message = nil
            let rows = PopupViews.listRows(windowRows: self.screen.size.rows) - 1
            switch result {
            case .success(let (hits, pending)):
                self.overlays.append(PassagesScreen(state: PassagesState(query: text, hits: hits, notes: notes, pending: pending, visibleRows: rows)))
            case .failure(let error):
                self.overlays.append(PassagesScreen(state: PassagesState(query: text, hits: [], error: error.userMessage, visibleRows: rows)))
            }
            self.render()
        }
    }

    /// The library search goes on in the book opened from it: its words are highlighted and
    /// `n` `N` `S` find them (#29 item 11). Set once the opening made the book the page; its
    /// chapter may be laid out already (highlights now) or later (highlights then).
    func carrySearch(_ text: String, into path: String) {
        guard let query = FullTextQuery(text) else { return }
        let opening = openTask
        Task { @MainActor [weak self] in
            await opening?.value
            guard let self, let book = self.currentBook, book.path == path, book.search == nil else { return }
            book.search = SearchState(query: Self.bookSearch(for: query))
            self.updateSearchMatches(book)
            self.render()
        }
    }

    /// The book search of a library query: its one word or phrase as typed (a prefix word
    /// finds the words it begins anyway); several, any of them — a passage held them all,
    /// not necessarily side by side.
    static func bookSearch(for query: FullTextQuery) -> String {
        guard query.terms.count > 1 else {
            let text = query.terms[0].text
            // Text that starts like a search prefix (`c:`, `re:`) is searched as itself.
            return SearchQuery(text).text == text ? text : "re:" + escaped(text)
        }
        return "re:" + query.terms.map { escaped($0.text) }.joined(separator: "|")
    }

    /// `text` as a regular expression matching itself: ASCII punctuation escaped.
    static func escaped(_ text: String) -> String {
        text.map { $0.isASCII && !$0.isLetter && !$0.isNumber && $0 != " " ? "\\" + String($0) : String($0) }.joined()
    }
}
