import TerminalCells
import Terminal

/// The note editor (#31): several lines of Markdown for a highlight. Enter starts a new line,
/// Ctrl-S saves, Escape cancels; the arrows, Home and End move the cursor. Everything typed is
/// in this value, so a resize (which only draws it again, wrapped to the new width) loses
/// nothing.
struct NoteEditorState: Sendable {
    /// The highlight whose note this is.
    let annotationID: String
    private(set) var text: [Character]
    /// The insertion point, an index in `text`.
    private(set) var cursor: Int
    /// The first wrapped row shown (kept so the cursor stays in view).
    var top = 0

    init(annotationID: String, note: String?) {
        self.annotationID = annotationID
        text = Array(note ?? "")
        cursor = text.count
    }

    var string: String { String(text) }

    enum Outcome: Sendable, Equatable {
        case editing
        /// Save this note (empty: the highlight keeps no note).
        case save(String)
        case cancel
    }

    mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .control("s"):
            return .save(trimmedNote)
        case .escape, .control("c"), .control("g"):
            return .cancel
        case .enter:
            insert("\n")
        case .tab:
            insert(" ")
        case .character(let character):
            insert(character)
        case .backspace, .control("h"):
            if cursor > 0 { text.remove(at: cursor - 1); cursor -= 1 }
        case .delete, .control("d"):
            if cursor < text.count { text.remove(at: cursor) }
        case .left, .control("b"):
            cursor = max(0, cursor - 1)
        case .right, .control("f"):
            cursor = min(text.count, cursor + 1)
        case .home, .control("a"):
            cursor = lineStart(cursor)
        case .end, .control("e"):
            cursor = lineEnd(cursor)
        case .up, .control("p"):
            moveLine(-1)
        case .down, .control("n"):
            moveLine(1)
        case .control("u"):
            let start = lineStart(cursor)
            text.removeSubrange(start..<cursor)
            cursor = start
        default:
            break
        }
        return .editing
    }

    /// The note as saved: without blank lines or spaces at its ends.
    var trimmedNote: String {
        var characters = text[...]
        while let first = characters.first, first.isWhitespace { characters.removeFirst() }
        while let last = characters.last, last.isWhitespace { characters.removeLast() }
        return String(characters)
    }

    private mutating func insert(_ character: Character) {
        // Control characters never enter a note: it is shown on the terminal later.
        if character != "\n", character.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return }
        text.insert(character, at: cursor)
        cursor += 1
    }

    private func lineStart(_ index: Int) -> Int {
        var start = index
        while start > 0, text[start - 1] != "\n" { start -= 1 }
        return start
    }

    private func lineEnd(_ index: Int) -> Int {
        var end = index
        while end < text.count, text[end] != "\n" { end += 1 }
        return end
    }

    /// Moves to the same column of the previous or next line of the text.
    private mutating func moveLine(_ delta: Int) {
        let start = lineStart(cursor), column = cursor - start
        if delta < 0 {
            guard start > 0 else { cursor = 0; return }
            let previousStart = lineStart(start - 1)
            cursor = min(previousStart + column, start - 1)
        } else {
            let end = lineEnd(cursor)
            guard end < text.count else { cursor = text.count; return }
            let nextStart = end + 1
            cursor = min(nextStart + column, lineEnd(nextStart))
        }
    }

    /// The text wrapped to `width` cells: each row's characters and the index of its first
    /// one, and the row and column of the cursor.
    func wrapped(width: Int) -> (rows: [(text: String, start: Int)], cursorRow: Int, cursorColumn: Int) {
        let width = max(2, width)
        var rows: [(String, Int)] = []
        var row = "", rowStart = 0, rowWidth = 0
        var cursorRow = 0, cursorColumn = 0
        for (index, character) in text.enumerated() {
            if index == cursor { cursorRow = rows.count; cursorColumn = rowWidth }
            if character == "\n" {
                rows.append((row, rowStart))
                row = ""; rowWidth = 0; rowStart = index + 1
                continue
            }
            let cells = max(1, CellWidth.of(character))
            if rowWidth + cells > width - 1 {
                rows.append((row, rowStart))
                row = ""; rowWidth = 0; rowStart = index
                if index == cursor { cursorRow = rows.count; cursorColumn = 0 }
            }
            row.append(character)
            rowWidth += cells
        }
        if cursor == text.count { cursorRow = rows.count; cursorColumn = rowWidth }
        rows.append((row, rowStart))
        return (rows, cursorRow, cursorColumn)
    }

    /// Keeps the cursor's row among the `height` rows shown.
    mutating func scroll(cursorRow: Int, height: Int) {
        if cursorRow < top { top = cursorRow }
        if cursorRow >= top + height { top = cursorRow - height + 1 }
        top = max(0, top)
    }
}
