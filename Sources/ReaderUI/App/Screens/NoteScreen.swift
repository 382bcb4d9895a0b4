import Terminal

/// A note popup (a footnote, or a dictionary's answer): `n` and `p` step through the page's
/// notes, the arrows scroll, Esc, `q`, Enter or `f` close it.
struct NoteScreen: Screen {
    var note: NoteState

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        if key == .escape || key == .character("q") || key == .enter || key == .character("f") { return [.pop] }
        if let step = Self.step(key), !note.siblings.isEmpty {
            let index = note.index + step
            guard note.siblings.indices.contains(index) else {
                return [.message(step > 0 ? "This is the last note of the page." : "This is the first note of the page.")]
            }
            return [.pop, .openNote(note.siblings, index: index)]
        }
        _ = note.scroll(key, rows: size.rows - 4)
        return []
    }

    func draw(into painter: Painter) {
        PopupViews.drawNote(note, painter: painter)
    }

    /// The note a key steps to, from the one shown.
    private static func step(_ key: Key) -> Int? {
        switch key {
        case .character("n"), .right: 1
        case .character("p"), .character("N"), .left: -1
        default: nil
        }
    }
}
