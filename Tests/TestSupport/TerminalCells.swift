/// Reads what a terminal would show from text with SGR colour sequences (Lectern's symbol
/// pictures, tmux `capture-pane -e`): a grid of cells with their characters and 24-bit or
/// 256-colour foreground and background, for tests that look for colours in regions.
public struct TerminalCells {
    public struct Color: Equatable, Sendable, CustomStringConvertible {
        public var r: Int, g: Int, b: Int
        public init(_ r: Int, _ g: Int, _ b: Int) { self.r = r; self.g = g; self.b = b }
        public var description: String { "(\(r),\(g),\(b))" }

        /// Whether every channel is within `tolerance` of `other`.
        public func isClose(to other: Color, tolerance: Int = 60) -> Bool {
            abs(r - other.r) <= tolerance && abs(g - other.g) <= tolerance && abs(b - other.b) <= tolerance
        }
    }

    public struct Cell {
        public var character: Character
        public var foreground: Color?
        public var background: Color?

        /// The colour a person sees most of in the cell: the background behind a space, the
        /// foreground of a full block, otherwise the one that covers more of a half or quadrant.
        public var dominantColor: Color? {
            switch character {
            case " ": return background
            case "█": return foreground
            case "▀", "▄", "▌", "▐": return foreground ?? background
            case "▘", "▝", "▖", "▗": return background ?? foreground
            default: return foreground ?? background
            }
        }
    }

    public private(set) var rows: [[Cell]] = []

    public init(_ text: String) {
        var foreground: Color?, background: Color?, inverse = false
        var row: [Cell] = []
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\u{1B}" {
                guard scalars.first == "[" else {
                    // Not CSI: skip the rest of an OSC/DCS/APC up to its terminator.
                    while let next = scalars.popFirst(), next != "\u{07}" {
                        if next == "\u{1B}", scalars.first == "\\" { scalars.removeFirst(); break }
                    }
                    continue
                }
                scalars.removeFirst()
                var parameters = ""
                while let next = scalars.first, (0x20...0x3F).contains(next.value) { parameters.unicodeScalars.append(next); scalars.removeFirst() }
                guard let final = scalars.popFirst() else { break }
                if final == "m" { Self.apply(parameters, foreground: &foreground, background: &background, inverse: &inverse) }
                continue
            }
            if scalar == "\n" { rows.append(row); row = []; continue }
            if scalar == "\r" { continue }
            // Reverse video swaps the colours (an unset one is the terminal's default).
            row.append(inverse ? Cell(character: Character(scalar), foreground: background, background: foreground)
                               : Cell(character: Character(scalar), foreground: foreground, background: background))
        }
        if !row.isEmpty { rows.append(row) }
    }

    /// The cell at `row`, `column`, if there is one.
    public func cell(_ row: Int, _ column: Int) -> Cell? {
        rows.indices.contains(row) && rows[row].indices.contains(column) ? rows[row][column] : nil
    }

    private static func apply(_ parameters: String, foreground: inout Color?, background: inout Color?, inverse: inout Bool) {
        var values = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[...]
        if values.isEmpty { values = [0] }
        while let value = values.popFirst() {
            switch value {
            case 0: foreground = nil; background = nil; inverse = false
            case 7: inverse = true
            case 27: inverse = false
            case 39: foreground = nil
            case 49: background = nil
            case 38, 48:
                var color: Color?
                if values.first == 2, values.count >= 4 {
                    let channels = values.dropFirst().prefix(3).map { $0 }
                    color = Color(channels[0], channels[1], channels[2])
                    values = values.dropFirst(4)
                } else if values.first == 5, values.count >= 2 {
                    color = palette(values.dropFirst().first!)
                    values = values.dropFirst(2)
                }
                if value == 38 { foreground = color } else { background = color }
            case 30...37: foreground = palette(value - 30)
            case 40...47: background = palette(value - 40)
            case 90...97: foreground = palette(value - 90 + 8)
            case 100...107: background = palette(value - 100 + 8)
            default: break
            }
        }
    }

    /// The xterm 256-colour palette.
    public static func palette(_ index: Int) -> Color {
        let basic = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
                     (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255)]
        if index < 16 { let c = basic[max(0, index)]; return Color(c.0, c.1, c.2) }
        if index < 232 {
            let n = index - 16, levels = [0, 95, 135, 175, 215, 255]
            return Color(levels[n / 36], levels[(n / 6) % 6], levels[n % 6])
        }
        let level = 8 + (min(index, 255) - 232) * 10
        return Color(level, level, level)
    }
}
