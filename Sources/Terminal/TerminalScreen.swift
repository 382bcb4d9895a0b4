import CLecternCurses
import FoundationEssentials
import TerminalCells
#if canImport(Glibc)
import Glibc
#endif

/// The terminal, through ncursesw: the only type in Lectern that calls ncurses, confined to
/// the main actor (ncurses is not thread-safe).
///
/// Drawing goes to one full-screen buffer; ``refresh()`` sends the difference to the
/// terminal. Text is clipped to the screen by cell width (``CellWidth``), so a line never
/// wraps onto the next one.
@MainActor
public final class TerminalScreen {
    private let screen: OpaquePointer
    /// How many colours drawing may use: 256, 16 or 8; 0 without colours or with `NO_COLOR`.
    public let colorCount: Int
    private var pairs: [PairKey: Int16] = [:]
    private var stopped = false

    private struct PairKey: Hashable {
        let foreground: TerminalColor
        let background: TerminalColor
    }

    /// Starts full-screen mode on the controlling terminal.
    ///
    /// Uses `newterm` rather than `initscr`, which exits the process when `TERM` is unusable:
    /// here an unknown terminal is an error the caller reports.
    ///
    /// - Parameter escapeDelay: milliseconds to wait after Esc for the rest of a key sequence.
    public init(escapeDelay: Int32 = 25) throws(TerminalError) {
        guard isatty(0) != 0, isatty(1) != 0 else { throw .notATerminal }
        TerminalLocale.setUp()
        let term = getenv("TERM").map { String(cString: $0) }
        guard let term, !term.isEmpty else { throw .unknownTerminal(nil) }
        guard let screen = newterm(nil, lectern_stdout(), lectern_stdin()) else { throw .unknownTerminal(term) }
        self.screen = screen
        set_term(screen)
        set_escdelay(escapeDelay)
        raw()
        noecho()
        nonl()
        keypad(lectern_stdscr(), true)
        nodelay(lectern_stdscr(), true)
        curs_set(0)
        let noColor = getenv("NO_COLOR").map { String(cString: $0).isEmpty == false } ?? false
        if !noColor, has_colors() {
            start_color()
            use_default_colors()
            colorCount = Int(lectern_colors()) >= 256 ? 256 : Int(lectern_colors())
        } else {
            colorCount = 0
        }
    }

    /// Leaves full-screen mode, restoring the terminal (safe to call twice).
    public func stop() {
        guard !stopped else { return }
        stopped = true
        endwin()
        delscreen(screen)
    }

    /// Leaves full-screen mode for a while (the process is about to be suspended): the
    /// terminal is as the shell expects it, cursor shown, until ``resume()``.
    public func suspend() {
        guard !stopped else { return }
        endwin()
    }

    /// Takes full-screen mode up again after ``suspend()``: the terminal modes come back with
    /// the next refresh, and everything is repainted (the shell wrote over the screen).
    public func resume() {
        guard !stopped else { return }
        invalidate()
        wrefresh(lectern_stdscr())
    }

    /// The screen size in cells.
    public var size: (rows: Int, columns: Int) {
        (Int(lectern_getmaxy(lectern_stdscr())), Int(lectern_getmaxx(lectern_stdscr())))
    }

    // MARK: - Drawing

    /// Clears the buffer (the terminal is updated at ``refresh()``).
    public func clear(style: CellStyle = .plain) {
        let (attributes, pair) = resolve(style)
        wbkgdset(lectern_stdscr(), attributes | lectern_color_pair(Int32(pair)) | 0x20)
        werase(lectern_stdscr())
    }

    /// Draws `text` at `row`, `column`, clipped to `maxWidth` cells and to the screen; returns
    /// the cells drawn. Control characters are not drawn.
    @discardableResult
    public func draw(_ text: String, row: Int, column: Int, style: CellStyle = .plain, maxWidth: Int? = nil) -> Int {
        let (rows, columns) = size
        guard row >= 0, row < rows, column < columns, !text.isEmpty else { return 0 }
        let limit = min(maxWidth ?? Int.max, columns - max(column, 0))
        var clipped = ""
        var width = 0
        var skip = max(0, -column)
        for character in text {
            let cells = CellWidth.of(character)
            if skip > 0 { skip -= max(cells, 1); continue }
            if width + cells > limit { break }
            // U+FEFF: the lam of a lam-alef ligature the layout drew with the alef; zero width.
            if let scalar = character.unicodeScalars.first, scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0xFEFF { continue }
            clipped.append(character)
            width += cells
        }
        guard !clipped.isEmpty else { return 0 }
        let (attributes, pair) = resolve(style)
        lectern_put(Int32(row), Int32(max(column, 0)), clipped, attributes, pair)
        return width
    }

    /// Fills `width` cells from `row`, `column` with spaces of `style`.
    public func fill(row: Int, column: Int, width: Int, style: CellStyle) {
        guard width > 0 else { return }
        draw(String(repeating: " ", count: width), row: row, column: column, style: style, maxWidth: width)
    }

    /// Sends the changes to the terminal.
    public func refresh() {
        wrefresh(lectern_stdscr())
    }

    /// Throws the terminal's content away and repaints everything at the next refresh (after
    /// a resize, or Ctrl-L).
    public func invalidate() {
        clearok(lectern_stdscr(), true)
    }

    /// Writes `sequence` straight to the terminal after the screen is up to date, the cursor
    /// saved before and restored after (DECSC/DECRC), so that ncurses' idea of where the
    /// cursor is stays true: how pictures are drawn in the cells the layout left for them.
    /// The caller made every byte (no text from outside).
    public func writeOverlay(_ sequence: String) {
        wrefresh(lectern_stdscr())
        fflush(lectern_stdout())
        var bytes = Array(("\u{1B}7" + sequence + "\u{1B}8").utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if written < 0 { if errno == EINTR { continue }; break }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Shows the hardware cursor at a cell (text fields), or hides it (nil).
    public func setCursor(row: Int?, column: Int = 0) {
        if let row {
            curs_set(1)
            wmove(lectern_stdscr(), Int32(row), Int32(column))
        } else {
            curs_set(0)
        }
    }

    /// Hands `text` to the system clipboard through the terminal: the OSC 52 sequence, which
    /// xterm, kitty, foot, WezTerm, iTerm2 and tmux (`set-clipboard`) understand, also over
    /// SSH. Written straight to the terminal after the screen is up to date.
    public func sendToClipboard(_ text: String) {
        let sequence = "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
        wrefresh(lectern_stdscr())
        fflush(lectern_stdout())
        var bytes = Array(sequence.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if written < 0 { if errno == EINTR { continue }; break }
            bytes = bytes.dropFirst(written)
        }
    }

    // MARK: - Input

    /// The next key, or nil when none is waiting (never blocks longer than the escape delay).
    public func readKey() -> Key? {
        var character: wint_t = 0
        let result = wget_wch(lectern_stdscr(), &character)
        if result == ERR { return nil }
        if result == lectern_key_code_yes() { return Self.functionKey(Int32(character)) }
        return Self.characterKey(UInt32(character))
    }

    static func characterKey(_ value: UInt32) -> Key {
        switch value {
        case 10, 13: return .enter
        case 27: return .escape
        case 9: return .tab
        case 8, 127: return .backspace
        case 0: return .control("@")
        case 1...26: return .control(Character(Unicode.Scalar(UInt8(value) + 96)))
        default:
            guard let scalar = Unicode.Scalar(value) else { return .other(Int32(bitPattern: value)) }
            return .character(Character(scalar))
        }
    }

    static func functionKey(_ code: Int32) -> Key {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_IC: return .insert
        case KEY_BTAB: return .backTab
        case lectern_key_resize(): return .resize
        case (KEY_F0 + 1)...(KEY_F0 + 24): return .function(Int(code - KEY_F0))
        default: return .other(code)
        }
    }

    // MARK: - Colours

    /// The ncurses attributes and colour pair of a style (colours dropped, or reduced to the
    /// terminal's palette).
    private func resolve(_ style: CellStyle) -> (attr_t, Int16) {
        var attributes = lectern_a_normal()
        if style.attributes.contains(.bold) { attributes |= lectern_a_bold() }
        if style.attributes.contains(.dim) { attributes |= lectern_a_dim() }
        if style.attributes.contains(.italic) { attributes |= lectern_a_italic() }
        if style.attributes.contains(.underline) { attributes |= lectern_a_underline() }
        if style.attributes.contains(.reverse) { attributes |= lectern_a_reverse() }
        guard colorCount > 0 else { return (attributes, 0) }
        let key = PairKey(foreground: style.foreground.reduced(to: colorCount), background: style.background.reduced(to: colorCount))
        if key.foreground == .default, key.background == .default { return (attributes, 0) }
        if let pair = pairs[key] { return (attributes, pair) }
        let next = pairs.count + 1
        guard next < min(Int(lectern_color_pairs()), Int(Int16.max)) else { return (attributes, 0) }
        func number(_ color: TerminalColor) -> Int16 {
            if case .indexed(let index) = color { return Int16(index) }
            return -1
        }
        init_pair(Int16(next), number(key.foreground), number(key.background))
        pairs[key] = Int16(next)
        return (attributes, Int16(next))
    }
}
