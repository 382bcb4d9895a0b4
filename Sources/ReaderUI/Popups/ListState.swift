import Terminal

/// A scrolling list with a selection, shared by the table of contents, the bookmarks and the
/// bookshelf: arrow and vim keys, page keys, Home/End.
public struct ListState: Sendable, Hashable {
    public private(set) var count: Int
    public private(set) var selection: Int
    public private(set) var top = 0
    /// The rows shown (set by the view from the window size).
    public var visibleRows: Int {
        didSet { visibleRows = max(1, visibleRows); scrollToSelection() }
    }

    public init(count: Int, selection: Int = 0, visibleRows: Int = 10) {
        self.count = count
        self.selection = count == 0 ? 0 : min(max(0, selection), count - 1)
        self.visibleRows = max(1, visibleRows)
        scrollToSelection(centred: true)
    }

    /// Handles a movement key; false when the key is not one.
    public mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .down, .character("j"), .control("n"): move(by: 1)
        case .up, .character("k"), .control("p"): move(by: -1)
        case .pageDown, .control("d"), .control("f"): move(by: visibleRows)
        case .pageUp, .control("u"), .control("b"): move(by: -visibleRows)
        case .home, .character("g"): select(0)
        case .end, .character("G"): select(count - 1)
        default: return false
        }
        return true
    }

    public mutating func move(by delta: Int) {
        select(selection + delta)
    }

    public mutating func select(_ index: Int) {
        guard count > 0 else { selection = 0; top = 0; return }
        selection = min(max(0, index), count - 1)
        scrollToSelection()
    }

    /// Changes the number of items (after filtering), keeping the selection in range.
    public mutating func reset(count: Int, selection: Int? = nil) {
        self.count = count
        top = 0
        select(selection ?? self.selection)
    }

    mutating func scrollToSelection(centred: Bool = false) {
        if centred, selection >= visibleRows { top = max(0, selection - visibleRows / 2) }
        if selection < top { top = selection }
        if selection >= top + visibleRows { top = selection - visibleRows + 1 }
        top = max(0, min(top, max(0, count - visibleRows)))
    }

    /// The indices shown.
    public var visibleRange: Range<Int> { top..<min(count, top + visibleRows) }
}
