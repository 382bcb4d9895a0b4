/// How a picture reaches the terminal.
public enum PictureProtocol: String, Sendable, CaseIterable {
    /// The kitty graphics protocol (kitty, WezTerm, Ghostty, Konsole).
    case kitty
    /// DEC sixel graphics (xterm -ti vt340, foot, mlterm, WezTerm, Windows Terminal).
    case sixel
    /// iTerm2 inline images (iTerm2, WezTerm, mintty).
    case iterm
    /// Text cells: block and quadrant symbols in colour; works in every terminal, tmux included.
    case symbols

    /// Whether the picture is made of characters in cells, which ncurses may overwrite like
    /// any text; the others are pixels laid over the cells.
    public var isTextCells: Bool { self == .symbols }

    /// What takes every picture of this protocol off the screen besides repainting the cells:
    /// kitty's images float above the text and must be deleted (`a=d`); the others are cells.
    public var erasingSequence: String { self == .kitty ? "\u{1B}_Ga=d,d=A,q=2\u{1B}\\" : "" }
}

/// How many colours the picture may use.
public enum PictureColors: Sendable, Equatable {
    /// 24-bit colour.
    case truecolor
    /// The 256-colour palette.
    case indexed256
    /// No colour (`NO_COLOR`): shapes in the terminal's own foreground and background.
    case monochrome
}

/// The size of a terminal cell in pixels, which decides a picture's proportions in cells.
public struct CellSize: Sendable, Equatable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
    }

    /// What most terminal fonts come close to when the terminal does not say.
    public static let typical = CellSize(width: 10, height: 20)
}
