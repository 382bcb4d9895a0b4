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
            guard let self, case .shelf = self.page else { return }
            self.shelf.message = nil
            let rows = PopupViews.listRows(windowRows: self.screen.size.rows) - 1
            switch result {
            case .success(let (hits, pending)):
                self.overlays.append(.passages(PassagesState(query: text, hits: hits, pending: pending, visibleRows: rows)))
            case .failure(let error):
                self.overlays.append(.passages(PassagesState(query: text, hits: [], error: error.userMessage, visibleRows: rows)))
            }
            self.render()
        }
    }

    func handlePassages(_ state: PassagesState, key: Key) {
        var state = state
        if key == .escape || key == .character("q") { return }
        if key == .enter || key == .character("o") || key == .right, let hit = state.selected {
            openPublication(path: hit.publication.path, entry: hit.publication, at: hit.locator)
            return
        }
        _ = state.list.handle(key)
        overlays.append(.passages(state))
    }
}
