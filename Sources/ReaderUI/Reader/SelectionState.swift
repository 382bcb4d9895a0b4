import TextLayout

/// A selection in the chapter shown (`v` in the reader): an anchor and a cursor, both
/// document offsets; the selection runs from one to the other, both included.
///
/// The cursor moves by character (`h` `l`), word (`w` `b`), line (`j` `k`) and paragraph
/// (`}` `{`); what is copied is the selected text in reading order, without the line feed
/// that ends a paragraph when the selection stops there.
public struct SelectionState: Sendable {
    public private(set) var anchor: Int
    public private(set) var cursor: Int
    /// False while the person places the start (a one-character cursor that moves whole, `c`);
    /// true once the selection runs from the anchor.
    public private(set) var isAnchored = true
    /// The chapter's text, one `Character` per document offset.
    private let characters: [Character]
    private let layout: LaidOutDocument

    /// Starts a one-character selection at `offset` (clamped to the document).
    public init(layout: LaidOutDocument, at offset: Int) {
        self.layout = layout
        characters = Array(layout.document.text(in: 0..<layout.document.length))
        let start = characters.isEmpty ? 0 : min(max(0, offset), characters.count - 1)
        anchor = start
        cursor = start
    }

    /// Selects `range` (a search match), the cursor at its end.
    public init(layout: LaidOutDocument, range: Range<Int>) {
        self.init(layout: layout, at: range.lowerBound)
        guard !characters.isEmpty else { return }
        cursor = min(max(anchor, range.upperBound - 1), characters.count - 1)
    }

    /// A cursor to place before anchoring (``anchorHere()``).
    public static func cursor(layout: LaidOutDocument, at offset: Int) -> SelectionState {
        var state = SelectionState(layout: layout, at: offset)
        state.isAnchored = false
        return state
    }

    /// Starts the selection at the cursor.
    public mutating func anchorHere() {
        anchor = cursor
        isAnchored = true
    }

    /// Swaps the ends: the keys then move the other one (both ends can be extended).
    public mutating func swapEnds() {
        guard isAnchored else { return }
        swap(&anchor, &cursor)
    }

    /// The selected offsets.
    public var range: Range<Int> {
        guard !characters.isEmpty else { return 0..<0 }
        return min(anchor, cursor)..<(max(anchor, cursor) + 1)
    }

    /// The text a copy takes: the selection, trailing line feeds and tabs (paragraph and cell
    /// separators) removed.
    public var text: String {
        var selected = characters[range]
        while let last = selected.last, last == "\n" || last == "\t" { selected.removeLast() }
        return String(selected)
    }

    /// How a key moves the cursor.
    public enum Movement: Sendable, Hashable {
        case characterForward, characterBackward
        case wordForward, wordBackward
        case lineDown, lineUp
        case paragraphForward, paragraphBackward
    }

    public mutating func move(_ movement: Movement) {
        guard !characters.isEmpty else { return }
        guard isAnchored else {
            moveCursor(movement)
            anchor = cursor
            return
        }
        let last = characters.count - 1
        switch movement {
        case .characterForward: cursor = min(last, cursor + 1)
        case .characterBackward: cursor = max(0, cursor - 1)
        case .wordForward:
            var index = cursor + 1
            while index <= last, !isWord(index) { index += 1 }
            while index < last, isWord(index + 1) { index += 1 }
            cursor = min(last, index)
        case .wordBackward:
            var index = cursor - 1
            while index > 0, !isWord(index) { index -= 1 }
            while index > 0, isWord(index - 1) { index -= 1 }
            cursor = max(0, index)
        case .lineDown, .lineUp:
            guard let line = layout.lineIndex(containing: cursor) else { return }
            var target = line
            repeat {
                target += movement == .lineDown ? 1 : -1
            } while layout.lines.indices.contains(target) && layout.lines[target].offsets.isEmpty
            guard layout.lines.indices.contains(target) else { return }
            let offsets = layout.lines[target].offsets
            // Extending forward takes whole lines to their end; backward, from their start.
            cursor = min(max(0, cursor >= anchor ? offsets.upperBound - 1 : offsets.lowerBound), last)
        case .paragraphForward:
            guard let block = layout.document.blockIndex(containing: cursor) else { return }
            var end = paragraphEnd(block)
            if cursor >= end, block + 1 < layout.document.blocks.count { end = paragraphEnd(block + 1) }
            cursor = min(last, end)
        case .paragraphBackward:
            guard let block = layout.document.blockIndex(containing: cursor) else { return }
            var start = layout.document.blocks[block].offset
            if cursor <= start, block > 0 { start = layout.document.blocks[block - 1].offset }
            cursor = max(0, start)
        }
    }

    /// Moves the unanchored cursor: to the start of words and lines, where a selection starts.
    private mutating func moveCursor(_ movement: Movement) {
        let last = characters.count - 1
        switch movement {
        case .wordForward:
            var index = cursor
            while index < last, isWord(index) { index += 1 }
            while index < last, !isWord(index) { index += 1 }
            cursor = index
        case .lineDown, .lineUp:
            guard let line = layout.lineIndex(containing: cursor) else { return }
            var target = line
            repeat {
                target += movement == .lineDown ? 1 : -1
            } while layout.lines.indices.contains(target) && layout.lines[target].offsets.isEmpty
            guard layout.lines.indices.contains(target) else { return }
            cursor = min(max(0, layout.lines[target].offsets.lowerBound), last)
        default:
            // By character, back a word, by paragraph: as the selection's cursor moves.
            anchor = cursor
            isAnchored = true
            move(movement)
            isAnchored = false
        }
    }

    /// The last offset of block `index`'s text (before its separator).
    private func paragraphEnd(_ index: Int) -> Int {
        let block = layout.document.blocks[index]
        return block.offset + max(0, block.length - 2)
    }

    private func isWord(_ index: Int) -> Bool {
        let character = characters[index]
        return character.isLetter || character.isNumber || character == "'" || character == "’" || character == "-"
    }
}
