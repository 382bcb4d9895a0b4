import Shared

extension ReaderApp {
    // MARK: - The jump list (`C-o` Backspace back, Tab forward)

    /// The page shown, as a place of the jump list (nil before the first layout).
    func currentPlace(_ book: BookController) -> JumpList.Place? {
        guard book.state.layout != nil, let locator = book.state.currentLocator else { return nil }
        return JumpList.Place(locator: locator, title: book.chapterTitle)
    }

    /// Remembers the page shown before a jump takes the person elsewhere.
    func recordJump(_ book: BookController) {
        guard let place = currentPlace(book) else { return }
        book.jumps.record(place)
    }

    /// Goes back (or forward) through the jump list, and says where to.
    func stepJump(_ book: BookController, forward: Bool) {
        guard let current = currentPlace(book) else { return }
        switch book.jumps.step(forward: forward, from: current, bookTitle: book.title) {
        case .go(let place, let text):
            jump(book, to: place.locator)
            message = text
        case .stay(let text):
            message = text
        }
    }
}
