import Shared

/// Where the person was before each jump (table of contents, link, search hit, percentage,
/// bookmark, start or end), to go back (`C-o`, Backspace) and forward again (`Tab`), as the
/// jump list of vim or a browser's history.
public struct JumpList: Sendable {
    /// A place: its locator, and the chapter's title to say where the person went.
    public struct Place: Sendable, Hashable {
        public let locator: Locator
        public let title: String

        public init(locator: Locator, title: String) {
            self.locator = locator
            self.title = title
        }
    }

    /// The places before the current one, the newest last.
    public private(set) var back: [Place] = []
    /// The places gone back from, the nearest last.
    public private(set) var forward: [Place] = []
    /// The most places kept each way.
    static let limit = 100

    public init() {}

    /// Records `place`, where the person was when they jumped: a new jump forgets the places
    /// ahead, as a browser's history does.
    public mutating func record(_ place: Place) {
        if back.last?.locator == place.locator { return }
        back.append(place)
        if back.count > Self.limit { back.removeFirst(back.count - Self.limit) }
        forward.removeAll()
    }

    /// The place to go back to from `current`, which becomes the first place forward; nil
    /// when there is none.
    public mutating func goBack(from current: Place) -> Place? {
        guard let place = back.popLast() else { return nil }
        forward.append(current)
        return place
    }

    /// The place to go forward to from `current`, which becomes the last place back; nil
    /// when there is none.
    public mutating func goForward(from current: Place) -> Place? {
        guard let place = forward.popLast() else { return nil }
        back.append(current)
        return place
    }

    /// What going back or forward (``step(forward:from:bookTitle:)``) does.
    public enum Step: Sendable, Equatable {
        /// Go to the place; the status line says where, and how many places are left each way.
        case go(to: Place, message: String)
        /// Nowhere to go: the status line says why.
        case stay(message: String)
    }

    /// Goes back (or forward) from `current`, the page shown. `bookTitle` names a place whose
    /// chapter has no title.
    public mutating func step(forward: Bool, from current: Place, bookTitle: String) -> Step {
        guard let place = forward ? goForward(from: current) : goBack(from: current) else {
            return .stay(message: forward ? "Nothing ahead: Tab goes forward again after C-o or Backspace went back."
                : "No earlier place: links, the contents, search, %, bookmarks, g and G are remembered.")
        }
        let title = place.title.isEmpty ? bookTitle : place.title
        let percent = place.locator.locations.totalProgression.map { " (\(Int(($0 * 100).rounded(.down)))%)" } ?? ""
        return .go(to: place, message: (forward ? "Forward to " : "Back to ") + "“\(TerminalText.sanitized(title))”\(percent)"
            + " · \(back.count) back · \(self.forward.count) ahead")
    }
}
