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
}
