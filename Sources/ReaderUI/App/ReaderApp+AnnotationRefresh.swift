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
}
