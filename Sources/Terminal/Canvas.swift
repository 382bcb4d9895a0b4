/// What the interface draws on and reads keys from: the terminal (``TerminalScreen``, through
/// ncurses) or a grid in memory (``MemoryCanvas``), so that the whole interface — opening, the
/// passphrase dialog, popups, copy and print — can run in-process in a test.
///
/// Drawing goes to a buffer; ``refresh()`` shows it. Text is clipped to the canvas by cell
/// width, so a line never wraps onto the next one.
@MainActor
public protocol Canvas: AnyObject {
    /// The size in cells.
    var size: (rows: Int, columns: Int) { get }
    /// How many colours drawing may use: 256, 16 or 8; 0 without colours.
    var colorCount: Int { get }

    /// Clears the buffer.
    func clear(style: CellStyle)
    /// Draws `text` at `row`, `column`, clipped to `maxWidth` cells and to the canvas; returns
    /// the cells drawn. Control characters are not drawn.
    @discardableResult
    func draw(_ text: String, row: Int, column: Int, style: CellStyle, maxWidth: Int?) -> Int
    /// Fills `width` cells from `row`, `column` with spaces of `style`.
    func fill(row: Int, column: Int, width: Int, style: CellStyle)
    /// Shows what was drawn.
    func refresh()
    /// Repaints everything at the next refresh (after a resize, Ctrl-L).
    func invalidate()
    /// Writes an escape sequence the caller made (a picture) after the canvas is up to date.
    func writeOverlay(_ sequence: String)
    /// Shows the cursor at a cell (text fields), or hides it (nil).
    func setCursor(row: Int?, column: Int)
    /// Hands `text` to the clipboard through the terminal (OSC 52).
    func sendToClipboard(_ text: String)
    /// The next key, or nil when none is waiting.
    func readKey() -> Key?

    /// Leaves full-screen mode for good.
    func stop()
    /// Leaves full-screen mode for a while (the process is being suspended).
    func suspend()
    /// Takes full-screen mode up again after ``suspend()``.
    func resume()
}

extension Canvas {
    public func clear() { clear(style: .plain) }

    @discardableResult
    public func draw(_ text: String, row: Int, column: Int, style: CellStyle = .plain) -> Int {
        draw(text, row: row, column: column, style: style, maxWidth: nil)
    }

    public func setCursor(row: Int?) { setCursor(row: row, column: 0) }
}

extension TerminalScreen: Canvas {}
