import Annotations
import Terminal

/// How a run of cells of the page is marked: a theme element (the selection, search matches)
/// or a highlight of the person's, in its colour and style.
enum HighlightPaint: Sendable, Hashable {
    case element(ThemeElement)
    case highlight(HighlightColor, HighlightStyle)

    /// The style of a cell drawn in `base` with this mark on it.
    ///
    /// A solid highlight is a pale background of its colour under dark text, legible on light
    /// and dark themes alike; an underline or strikethrough keeps the cell's background and
    /// takes a saturated foreground of the colour. Without colours (`NO_COLOR`, a monochrome
    /// terminal) a solid highlight is reverse video and the others are underlined.
    @MainActor
    func style(over base: CellStyle, palette: ThemePalette, colorCount: Int) -> CellStyle {
        switch self {
        case .element(let element):
            return palette[element]
        case .highlight(let color, let style):
            var result = base
            guard colorCount > 0 else {
                switch style {
                case .solid: result.attributes.insert(.reverse)
                case .underline: result.attributes.insert(.underline)
                case .strikethrough: result.attributes.formUnion([.underline, .dim])
                }
                return result
            }
            switch style {
            case .solid:
                result.background = TerminalColor.indexed(Self.background(color)).reduced(to: colorCount)
                result.foreground = TerminalColor.indexed(colorCount >= 256 ? 16 : 0)
            case .underline:
                result.foreground = TerminalColor.indexed(Self.foreground(color)).reduced(to: colorCount)
                result.attributes.insert(.underline)
            case .strikethrough:
                result.foreground = TerminalColor.indexed(Self.foreground(color)).reduced(to: colorCount)
            }
            return result
        }
    }

    /// Whether the cells are struck through (curses has no attribute for it: each character
    /// carries U+0336 COMBINING LONG STROKE OVERLAY).
    var strikes: Bool {
        if case .highlight(_, .strikethrough) = self { return true }
        return false
    }

    /// A character as drawn with this mark.
    func drawn(_ character: Character) -> String {
        guard strikes, !character.isWhitespace else { return String(character) }
        return String(character) + "\u{0336}"
    }

    /// The pale background of a solid highlight (256-colour palette; reduced on 16 colours).
    static func background(_ color: HighlightColor) -> UInt8 {
        switch color {
        case .yellow: 228
        case .green: 157
        case .blue: 153
        case .pink: 218
        case .orange: 216
        case .purple: 183
        }
    }

    /// The saturated foreground of an underline or strikethrough.
    static func foreground(_ color: HighlightColor) -> UInt8 {
        switch color {
        case .yellow: 178
        case .green: 34
        case .blue: 33
        case .pink: 205
        case .orange: 208
        case .purple: 135
        }
    }
}
