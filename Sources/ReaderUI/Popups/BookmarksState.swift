import Bookshelf
import Shared
import Terminal

/// The bookmarks popup (`'`): the publication's bookmarks in reading order, and what each key
/// does to them, decided here without the terminal (the application carries the effect out).
public struct BookmarksState: Sendable {
    public private(set) var bookmarks: [Bookmark]
    public var list: ListState
    /// The name being typed for the selected bookmark (`r`), nil when not naming one.
    public private(set) var naming: TextField?

    public init(bookmarks: [Bookmark], visibleRows: Int = 10) {
        self.bookmarks = bookmarks
        list = ListState(count: bookmarks.count, visibleRows: visibleRows)
    }

    public var selected: Bookmark? { bookmarks.isEmpty ? nil : bookmarks[list.selection] }

    /// The list read again (a merge with the sync folder brought other devices' bookmarks,
    /// #32): the bookmark selected stays selected when it is still there.
    public mutating func replaceBookmarks(_ fresh: [Bookmark]) {
        let selectedID = selected?.id
        bookmarks = fresh
        list.reset(count: fresh.count, selection: fresh.firstIndex { $0.id == selectedID } ?? list.selection)
    }

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
        /// The bookmark was given a new name (its label): store it. The popup stays.
        case rename(Bookmark)
        /// The popup stays (the selection may have moved).
        case stay
    }

    /// Handles `key`: Escape, `q` or `'` close; Enter goes to the selected bookmark; `d` or
    /// Delete deletes it; `r` names it (Enter keeps the name typed, Escape keeps the old one);
    /// the list keys move.
    public mutating func handle(_ key: Key) -> Effect {
        if var field = naming {
            switch field.handle(key) {
            case .submitted(let text):
                naming = nil
                // An empty name keeps the old label: a bookmark is never listed blank.
                guard !text.trimmed.isEmpty, var bookmark = selected else { return .stay }
                bookmark.label = text.trimmed
                bookmarks[list.selection] = bookmark
                return .rename(bookmark)
            case .cancelled:
                naming = nil
            case .edited, .ignored:
                naming = field
            }
            return .stay
        }
        if key == .character("r"), let bookmark = selected {
            naming = TextField(bookmark.label)
            return .stay
        }
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

    /// The list's line for `bookmark`: how far into the book, its name, and the words at its
    /// place when the name does not already show them (a named bookmark). Only unprotected
    /// books store those words; a protected book's bookmark is named from its contents.
    public static func line(for bookmark: Bookmark) -> String {
        let percent = bookmark.progress.map { String(Int(($0 * 100).rounded(.down))) + "% " } ?? ""
        let name = TerminalText.singleLine(bookmark.label).trimmed
        let words = TerminalText.singleLine(Locator(jsonString: bookmark.locator)?.text.highlight ?? "").trimmed
        guard !words.isEmpty, !name.contains(words) else { return percent + name }
        return percent + name + " — “" + words + "”"
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
