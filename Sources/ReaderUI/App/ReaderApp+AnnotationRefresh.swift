import Bookshelf
import FoundationEssentials

extension ReaderApp {
    /// Reads the open book's highlights again every ``Dependencies/annotationRefreshInterval``
    /// (the store merges the sync folder first, #32): what another device did while the book is
    /// open is drawn without reopening it. Highlights made meanwhile are kept (see
    /// ``loadAnnotations(_:)``); the book closing cancels the wait.
    func scheduleAnnotationRefresh(_ book: BookController) {
        guard let interval = dependencies.annotationRefreshInterval, dependencies.annotations != nil else { return }
        book.tasks.start(.annotationRefresh) { [weak self, weak book] in
            try? await Task.sleep(for: interval)
            guard let self, let book, !Task.isCancelled else { return }
            self.loadAnnotations(book)
            self.scheduleAnnotationRefresh(book)
        }
    }

    /// Reads the bookmark list shown on top again after a merge with the sync folder (#32):
    /// another device's bookmarks are listed without closing it. The same bookmark stays
    /// selected; a list being named in is left alone (the read would undo the typing).
    func refreshShownBookmarks(_ book: BookController) {
        guard let library = dependencies.library, let id = book.entry?.id, overlays.last is BookmarksScreen else { return }
        book.tasks.start(.bookmarks, computing: { () -> [Bookmark]? in
            try? await library.bookmarks(publicationID: id)
        }, then: { [weak self] fresh in
            guard let self, let fresh, var shown = overlays.last as? BookmarksScreen, shown.state.naming == nil,
                  shown.state.bookmarks != fresh else { return }
            shown.state.replaceBookmarks(fresh)
            overlays[overlays.count - 1] = shown
            render()
        })
    }
}
