import Dispatch
import FoundationEssentials
import Shared
import Terminal

/// Progress sync in the reader (#32): on opening, another device's newer place is offered
/// ("Device kobo read to 43% in chapter 12 — jump? y/n"); the place is pushed 25 s after the
/// last page turn, when the book closes, and when the program ends (a hang-up included),
/// waiting a few seconds at most. Nothing here ever holds up the keys.
extension ReaderApp {
    /// Asks for another device's newer place once the book's first page is shown.
    func pullSyncedPlace(_ book: BookController) {
        guard let sync = dependencies.progressSync else { return }
        // The page it opened on is not pushed again unless it moves: closing a book unread
        // must not put an older place over the one offered.
        book.syncPushedLocator = book.positionToSave.map { Self.syncKey($0.locator) }
        let path = book.path, since = book.entry?.openedAt
        book.tasks.start(.syncPull, computing: { await sync.pull(path, since) }) { [weak self, weak book] offer in
            guard let self, let book, let offer, book.chapterIndex(of: offer.locator.href) != nil else { return }
            book.syncOffer = offer
            self.message = Self.syncOfferText(offer, book: book, columns: self.screen.size.columns)
            self.render()
        }
    }

    /// "kobo read to 43% in chapter 12 — jump? y/n" (the chapter's title when the contents
    /// give one; left out when the line is too narrow for it, so that the question shows).
    static func syncOfferText(_ offer: ReaderProgressSync.Offer, book: BookController, columns: Int) -> String {
        let percent = Int((offer.percentage * 100).rounded())
        let index = book.chapterIndex(of: offer.locator.href) ?? 0
        let title = book.publication.tableOfContents.first { Href.removingFragment($0.href) == Href.removingFragment(offer.locator.href) }?.title
        let chapter = title.map { "in \"\($0)\"" } ?? "in chapter \(index + 1)"
        // The device's name is the server's text: shown with its control characters made
        // visible, on one line, and not so long that the question falls off the line.
        let device = String(TerminalText.sanitized(offer.device).map { $0.isNewline || $0 == "\t" ? " " : $0 }.prefix(24))
        let whole = "\(device) read to \(percent)% \(chapter) — jump? y/n"
        // The status line keeps about 16 columns for the page and percentage.
        return whole.count <= columns - 16 ? whole : "\(device) read to \(percent)% — jump? y/n"
    }

    /// Pushes the place once the pages stop turning for ``ReaderProgressSync/pushDelay``.
    func scheduleSyncPush(_ book: BookController) {
        guard let delay = dependencies.progressSync?.pushDelay else { return }
        book.tasks.start(.syncPush) { [weak self, weak book] in
            try? await Task.sleep(nanoseconds: delay)
            guard let self, let book, !Task.isCancelled else { return }
            _ = self.startSyncPush(book)
        }
    }

    /// Pushes the place when the book closes; when the program ends, waits for it a few
    /// seconds at most (the process would otherwise end with the push).
    func pushSyncedPlaceOnClose(_ book: BookController, waiting: Bool) {
        guard let task = startSyncPush(book), waiting else { return }
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await task.value
            done.signal()
        }
        _ = done.wait(timeout: .now() + ReaderProgressSync.pushWaitOnQuit)
    }

    /// Starts pushing the page shown unless it is the one pushed last; the push outlives the
    /// book (it is not one of its tasks).
    private func startSyncPush(_ book: BookController) -> Task<Void, Never>? {
        guard let sync = dependencies.progressSync, let (locator, progress) = book.positionToSave else { return nil }
        let key = Self.syncKey(locator)
        guard key != book.syncPushedLocator else { return nil }
        book.syncPushedLocator = key
        let path = book.path
        return Task.detached { await sync.push(path, locator, progress) }
    }

    /// The page a locator names, for telling whether the page moved: its chapter and place in
    /// it (the book-wide progression, counted later, does not move it).
    static func syncKey(_ locator: Locator) -> String {
        let place = locator.locations.progression.map { String(Int(($0 * 10_000).rounded())) } ?? locator.text.highlight ?? ""
        return Href.removingFragment(locator.href) + "#" + place
    }
}
