import Synchronization
import TextLayout
import TerminalCells

/// Measuring, truncating and wrapping interface text by terminal cells.
enum TextFitting {
    static func width(_ text: String) -> Int {
        text.reduce(0) { $0 + CellWidth.of($1) }
    }

    /// `text` cut to `width` cells, ending with `…` when cut.
    static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if self.width(text) <= width { return text }
        var result = "", used = 0
        for character in text {
            let cells = CellWidth.of(character)
            if used + cells > width - 1 { break }
            result.append(character)
            used += cells
        }
        return result + "…"
    }

    /// Whether the terminal reorders right-to-left text itself (`reader.bidi = "terminal"`):
    /// set once when the reader starts, read by every view.
    static let terminalReorders = Atomic<Bool>(false)

    /// An interface string (a title, a label) as the terminal must receive it: through the
    /// page text's bidi reordering, mirroring and shaping (``DisplayOrder``). Apply it once,
    /// to a string from the outside, after any truncation and before padding.
    /// `interfaceLine`: a line composed around words from outside (a prompt, a message), left
    /// to right whatever its first letter (see ``DisplayOrder/visual(_:mode:interfaceLine:)``).
    static func visual(_ text: String, interfaceLine: Bool = false) -> String {
        DisplayOrder.visual(text, mode: terminalReorders.load(ordering: .relaxed) ? .terminal : .lectern, interfaceLine: interfaceLine)
    }

    /// ``visual(_:)`` one character at a time, each with its logical offset in `text`.
    static func visualCharacters(_ text: String) -> [(character: Character, source: Int)] {
        DisplayOrder.characters(text, mode: terminalReorders.load(ordering: .relaxed) ? .terminal : .lectern)
    }

    /// A word from outside (a title, a query) inside an interface line, kept whole by the
    /// line's bidi (``DisplayOrder/isolated(_:)``).
    static func isolated(_ text: String) -> String { DisplayOrder.isolated(text) }

    /// `text` cut to `width` cells at its logical end, then in visual order.
    static func fitted(_ text: String, to width: Int, interfaceLine: Bool = false) -> String {
        visual(truncate(text, to: width), interfaceLine: interfaceLine)
    }

    /// ``fitted(_:to:)`` padded with spaces to `width` cells: a column of a row.
    static func paddedVisual(_ text: String, to width: Int) -> String {
        let fitted = fitted(text, to: width)
        return fitted + String(repeating: " ", count: max(0, width - self.width(fitted)))
    }

    /// `text` padded with spaces to `width` cells (truncated when longer).
    static func pad(_ text: String, to width: Int) -> String {
        let fitted = truncate(text, to: width)
        return fitted + String(repeating: " ", count: max(0, width - self.width(fitted)))
    }

    /// Greedy word wrap to `width` cells; words longer than a line are cut.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = "", used = 0
            for word in paragraph.split(separator: " ") {
                var word = String(word)
                var wordWidth = self.width(word)
                while wordWidth > width {
                    if !line.isEmpty { lines.append(line); line = ""; used = 0 }
                    var head = "", headWidth = 0
                    for character in word {
                        let cells = CellWidth.of(character)
                        if headWidth + cells > width { break }
                        head.append(character)
                        headWidth += cells
                    }
                    lines.append(head)
                    word.removeFirst(head.count)
                    wordWidth = self.width(word)
                }
                if word.isEmpty { continue }
                if used == 0 {
                    line = word
                    used = wordWidth
                } else if used + 1 + wordWidth <= width {
                    line += " " + word
                    used += 1 + wordWidth
                } else {
                    lines.append(line)
                    line = word
                    used = wordWidth
                }
            }
            lines.append(line)
        }
        return lines
    }
}
