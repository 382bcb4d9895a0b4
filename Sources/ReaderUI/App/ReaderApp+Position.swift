import Bookshelf
import Shared

/// The reading position: saved through the library's writer when a chapter is shown or a jump
/// lands, a moment after the last page turn, and at once when the book closes (quitting, a
/// signal, a suspension), so that no way of leaving the reader loses the page.
extension ReaderApp {
    /// How long after the last movement the page is saved: one write for a run of page turns.
    static let positionSaveDelay: UInt64 = 1_000_000_000

    /// Notes the page for the reading pace, then saves it.
    func savePosition(_ book: BookController) {
        notePage(book)
        queuePosition(book)
    }

    /// Saves the page shown through the library's writer, unless it is the one saved last.
    func queuePosition(_ book: BookController, onlyIfMoved: Bool = false) {
        guard let library = dependencies.library, let id = book.entry?.id, let (locator, progress) = book.positionToSave else { return }
        let json = locator.jsonString
        if onlyIfMoved, json == book.savedLocator { return }
        book.savedLocator = json
        // Queued now, not from a task: the library writes in the order it is asked, so the
        // newest position is the one kept, and closing the book (a write queued later) wins.
        library.queuePosition(id: id, locator: json, progress: progress) { error in
            Task { @MainActor [weak self] in
                self?.message = "Could not save the reading position: \(error.userMessage)"
                self?.render()
            }
        }
    }

    /// Saves the page a moment after the keys just handled, when they moved it: a page turn
    /// inside a chapter saves nothing else, and a closed window or a dropped connection that
    /// no signal announces must still find the page. Each key restarts the wait.
    func scheduleSavingPosition() {
        guard let book = currentBook, dependencies.library != nil else { return }
        scheduleSyncPush(book)
        book.tasks.start(.positionSave) { [weak self, weak book] in
            try? await Task.sleep(nanoseconds: Self.positionSaveDelay)
            guard let self, let book, !Task.isCancelled else { return }
            self.queuePosition(book, onlyIfMoved: true)
        }
    }

    /// Saves the page now, waiting for the write (before the process stops or ends).
    func savePositionNow(_ book: BookController) -> LibraryError? {
        guard let library = dependencies.library, let id = book.entry?.id, let (locator, progress) = book.positionToSave else { return nil }
        let json = locator.jsonString
        do throws(LibraryError) {
            try library.savePositionNow(id: id, locator: json, progress: progress)
            book.savedLocator = json
            return nil
        } catch {
            return error
        }
    }

    /// Closes the book, saving the position first (one small write, after those queued).
    func closeReader(_ book: BookController, thenShelf: Bool) {
        if let error = savePositionNow(book) {
            // Shown on the bookshelf, or printed when the program ends with the book.
            if thenShelf { shelf.message = "Could not save the reading position: \(error.userMessage)" }
            else { Self.printError("could not save the reading position: \(error.userMessage)") }
        }
        recordReadingSession(book)
        pushSyncedPlaceOnClose(book, waiting: !thenShelf)
        book.close()
        if thenShelf { page = .shelf }
    }
}
