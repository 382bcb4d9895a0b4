import Annotations
import Terminal

/// The colours of the person's highlights in a theme: one element per ``HighlightColor``
/// (`[highlight_yellow]` …), whose `fg` on `bg` is a solid highlight and whose `ink` colours the
/// text of an underline or strikethrough. Each built-in theme gives its own, readable on its
/// page (a dark theme dark marks under light text; a light one pale marks under dark text);
/// a theme file that gives none, or only some keys, takes these defaults, made for a terminal
/// of unknown background: pale marks under black text, and inks of a middle lightness,
/// legible on black and on white.
enum HighlightTheme {
    static let defaults: [ThemeElement: Theme.Definition] = {
        // (solid background, ink) in the 256-colour palette.
        let colours: [(HighlightColor, UInt8, UInt8)] = [
            (.yellow, 228, 136), (.green, 157, 28), (.blue, 153, 33),
            (.pink, 218, 168), (.orange, 216, 166), (.purple, 183, 135),
        ]
        var result: [ThemeElement: Theme.Definition] = [:]
        for (colour, background, ink) in colours {
            result[.highlight(colour)] = Theme.Definition(foreground: .indexed(16), background: .indexed(background), ink: .indexed(ink))
        }
        return result
    }()

    /// A theme's definition of a highlight element, each key it leaves out taken from `defaults`.
    static func merged(_ definition: Theme.Definition?, over defaults: Theme.Definition) -> Theme.Definition {
        guard let definition else { return defaults }
        var result = definition
        result.foreground = definition.foreground ?? defaults.foreground
        result.background = definition.background ?? defaults.background
        result.ink = definition.ink ?? defaults.ink
        return result
    }
}

extension ThemeElement {
    /// The element of a highlight colour.
    package static func highlight(_ color: HighlightColor) -> ThemeElement {
        switch color {
        case .yellow: .highlightYellow
        case .green: .highlightGreen
        case .blue: .highlightBlue
        case .pink: .highlightPink
        case .orange: .highlightOrange
        case .purple: .highlightPurple
        }
    }
}
