import TerminalCells

/// A canvas in memory: a grid of cells that keeps what the terminal would show, the keys to
/// hand out, and what was sent past the grid (pictures, the clipboard). For running the
/// interface in-process — tests read ``text`` as they would read a terminal's screen.
@MainActor
public final class MemoryCanvas: Canvas {
    public private(set) var size: (rows: Int, columns: Int)
    public let colorCount: Int
    /// The characters of each cell ("" for the second cell of a wide character).
    private var cells: [[String]]
    /// The style of each cell.
    private var styles: [[CellStyle]]
    /// What the last ``refresh()`` showed, one string per row (trailing spaces kept).
    public private(set) var shownRows: [String] = []
    /// The cursor's cell when it is shown.
    public private(set) var cursor: (row: Int, column: Int)?
    /// Text handed to the clipboard through the terminal, oldest first.
    public private(set) var clipboard: [String] = []
    /// Escape sequences written past the grid (pictures), oldest first.
    public private(set) var overlays: [String] = []
    /// Keys waiting to be read.
    private var keys: [Key] = []
    /// Whether ``stop()`` was called.
    public private(set) var isStopped = false

    public init(rows: Int = 24, columns: Int = 80, colorCount: Int = 0) {
        size = (rows, columns)
        self.colorCount = colorCount
        cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        styles = Array(repeating: Array(repeating: .plain, count: columns), count: rows)
    }

    /// What the canvas shows, rows joined by line feeds, trailing spaces removed.
    public var text: String {
        shownRows.map { row in String(row.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
    }

    /// The style drawn at a cell at the last refresh.
    public func style(row: Int, column: Int) -> CellStyle? {
        guard row >= 0, row < size.rows, column >= 0, column < size.columns else { return nil }
        return styles[row][column]
    }

    /// Queues keys for ``readKey()``.
    public func type(_ keys: [Key]) { self.keys += keys }

    /// Changes the size (the caller then hands the interface a `.resize` key).
    public func resize(rows: Int, columns: Int) {
        size = (rows, columns)
        cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        styles = Array(repeating: Array(repeating: .plain, count: columns), count: rows)
    }

    // MARK: - Canvas

    public func clear(style: CellStyle) {
        for row in 0..<size.rows {
            for column in 0..<size.columns {
                cells[row][column] = " "
                styles[row][column] = style
            }
        }
    }

    @discardableResult
    public func draw(_ text: String, row: Int, column: Int, style: CellStyle, maxWidth: Int?) -> Int {
        let (rows, columns) = size
        guard row >= 0, row < rows, column < columns, !text.isEmpty else { return 0 }
        let limit = min(maxWidth ?? Int.max, columns - max(column, 0))
        var width = 0
        var skip = max(0, -column)
        var at = max(column, 0)
        for character in text {
            let cellCount = CellWidth.of(character)
            if skip > 0 { skip -= max(cellCount, 1); continue }
            if width + cellCount > limit { break }
            if let scalar = character.unicodeScalars.first, scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0xFEFF { continue }
            guard cellCount > 0 else {
                // A combining mark joins the character before it.
                if at > 0 { cells[row][at - 1] += String(character) }
                continue
            }
            cells[row][at] = String(character)
            styles[row][at] = style
            for extra in 1..<max(1, cellCount) where at + extra < columns {
                cells[row][at + extra] = ""
                styles[row][at + extra] = style
            }
            at += cellCount
            width += cellCount
        }
        return width
    }

    public func fill(row: Int, column: Int, width: Int, style: CellStyle) {
        guard width > 0 else { return }
        draw(String(repeating: " ", count: width), row: row, column: column, style: style, maxWidth: width)
    }

    public func refresh() {
        shownRows = cells.map { $0.joined() }
    }

    public func invalidate() {}

    public func writeOverlay(_ sequence: String) { overlays.append(sequence) }

    public func setCursor(row: Int?, column: Int) {
        cursor = row.map { ($0, column) }
    }

    public func sendToClipboard(_ text: String) { clipboard.append(text) }

    public func readKey() -> Key? {
        keys.isEmpty ? nil : keys.removeFirst()
    }

    public func stop() { isStopped = true }
    public func suspend() {}
    public func resume() {}
}
