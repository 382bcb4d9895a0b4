import Annotations
import Terminal

/// How a run of cells of the page is marked: a theme element (the selection, search matches)
/// or a highlight of the person's, in its colour and style.
enum HighlightPaint: Sendable, Hashable {
    case element(ThemeElement)
    case highlight(HighlightColor, HighlightStyle)

    /// The style of a cell drawn in `base` with this mark on it.
    ///
    /// A solid highlight is the theme's mark of its colour under the theme's text for it; an
    /// underline or strikethrough keeps the cell's background and takes the colour's ink.
    /// Without colours (`NO_COLOR`, a monochrome
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
            // The colours are the theme's (HighlightTheme).
            let element = ThemeElement.highlight(color)
            switch style {
            case .solid:
                result.background = palette[element].background
                result.foreground = palette[element].foreground
            case .underline:
                result.foreground = palette.ink(element)
                result.attributes.insert(.underline)
            case .strikethrough:
                result.foreground = palette.ink(element)
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
}
