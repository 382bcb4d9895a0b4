import Bookshelf
import Shared
import Terminal

/// The bookmarks popup (`'`): the publication's bookmarks in reading order, and what each key
/// does to them, decided here without the terminal (the application carries the effect out).
public struct BookmarksState: Sendable {
    public private(set) var bookmarks: [Bookmark]
    public var list: ListState

    public init(bookmarks: [Bookmark], visibleRows: Int = 10) {
        self.bookmarks = bookmarks
        list = ListState(count: bookmarks.count, visibleRows: visibleRows)
    }

    public var selected: Bookmark? { bookmarks.isEmpty ? nil : bookmarks[list.selection] }

    /// Removes the selected bookmark from the list; returns it.
    public mutating func removeSelected() -> Bookmark? {
        guard let bookmark = selected else { return nil }
        bookmarks.remove(at: list.selection)
        list.reset(count: bookmarks.count)
        return bookmark
    }

    /// What a key in the popup asks for.
    public enum Effect: Sendable, Equatable {
        /// The popup closes.
        case close
        /// The popup closes and the reader goes to the bookmark (a jump, remembered as one).
        case jump(to: Locator)
        /// The bookmark left the list: delete it from the library. The popup stays.
        case delete(Bookmark)
        /// The popup stays (the selection may have moved).
        case stay
    }

    /// Handles `key`: Escape, `q` or `'` close; Enter goes to the selected bookmark; `d` or
    /// Delete deletes it; the list keys move.
    public mutating func handle(_ key: Key) -> Effect {
        if key == .escape || key == .character("q") || key == .character("'") { return .close }
        if key == .enter, let bookmark = selected {
            // A bookmark whose place cannot be read any more closes the popup and goes nowhere.
            return Locator(jsonString: bookmark.locator).map { .jump(to: $0) } ?? .close
        }
        if key == .character("d") || key == .delete {
            return removeSelected().map { .delete($0) } ?? .stay
        }
        _ = list.handle(key)
        return .stay
    }

    /// The bookmark for the page at `locator`: labelled with the chapter's title and the
    /// page's first words, as the list shows it.
    public static func bookmark(at locator: Locator, chapterTitle: String, progress: Double?) -> Bookmark {
        let label = (chapterTitle.isEmpty ? "" : chapterTitle + ": ") + (locator.text.highlight ?? "")
        return Bookmark(locator: locator.jsonString, label: label.trimmed, progress: progress)
    }

    /// The bookmark for a page of a protected publication, whose words never reach the disk:
    /// `locator` without its text, labelled with the chapter's title (its table-of-contents
    /// entry) and how far into the chapter the page is (`chapterProgression`, nil for a page
    /// of a PDF or a comic, which its title names).
    public static func protectedBookmark(at locator: Locator, chapterTitle: String, chapterProgression: Double?,
                                         progress: Double?) -> Bookmark {
        var stored = locator
        stored.text = Locator.Text()
        var label = chapterTitle.trimmed.isEmpty ? "Bookmark" : chapterTitle.trimmed
        if let chapterProgression { label += " · \(Int((chapterProgression * 100).rounded(.down)))% into it" }
        return Bookmark(locator: stored.jsonString, label: label, progress: progress)
    }
}
