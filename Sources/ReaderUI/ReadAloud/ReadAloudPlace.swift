import Shared
import TextLayout

/// The place read aloud last in a book: the phrase or sentence being read, kept after the
/// reading stops, so that the position saved (when reading stops, when the book closes) is
/// that phrase rather than the top of its page, and reopening lands on it.
///
/// It stands for the position only while the page is the one the reading left: a page turned
/// by hand afterwards is saved as usual.
@MainActor
struct ReadAloudPlace {
    private weak var book: BookController?
    private let chapter: Int
    private let top: Int
    private let locator: Locator

    private static var places: [ObjectIdentifier: ReadAloudPlace] = [:]

    /// Notes the start of what `session` reads as `book`'s place, when it is in the chapter
    /// shown (laid out whole: a first part's offsets are not the chapter's progression).
    static func note(_ session: ReadAloudSession, book: BookController) {
        guard let current = session.current, book.chapterIndex(of: current.href) == book.state.chapter,
              case .whole = book.state.laidOutPart, let document = book.state.layout?.document,
              let range = ReadAloudSession.range(of: current.place, in: document) else { return }
        places = places.filter { $0.value.book != nil }
        places[ObjectIdentifier(book)] = ReadAloudPlace(book: book, chapter: book.state.chapter, top: book.state.top,
                                                        locator: document.locator(at: range.lowerBound))
    }

    /// The place to save for `book`: the last phrase read, while its page is still shown.
    static func locator(of book: BookController) -> Locator? {
        guard let place = places[ObjectIdentifier(book)], place.book === book,
              place.chapter == book.state.chapter, place.top == book.state.top else { return nil }
        var locator = place.locator
        locator.locations.totalProgression = book.state.bookProgression
        return locator
    }
}
