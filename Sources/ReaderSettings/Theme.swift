import Terminal

/// The parts of the interface a theme colours.
public enum ThemeElement: String, Sendable, CaseIterable {
    case text, heading, link, note, image, code, secondary
    case selection, match
    case currentMatch = "current_match"
    case status, dialog
    case dialogBorder = "dialog_border"
    case dialogTitle = "dialog_title"
    case title, header, cursor, error, input
    /// The person's highlights, one per ``HighlightColor``: `fg` on `bg` for a solid
    /// highlight, `ink` for the text of an underline or strikethrough (``HighlightTheme``).
    case highlightYellow = "highlight_yellow"
    case highlightGreen = "highlight_green"
    case highlightBlue = "highlight_blue"
    case highlightPink = "highlight_pink"
    case highlightOrange = "highlight_orange"
    case highlightPurple = "highlight_purple"
    /// The phrase or sentence read aloud, and the word being said in it; a theme without them
    /// paints them as its `current_match` and `match` (``borrowed``).
    case readAloud = "read_aloud"
    case readAloudWord = "read_aloud_word"

    /// The element whose definition stands in for this one in a theme that leaves it out.
    var borrowed: ThemeElement? {
        switch self {
        case .readAloud: .currentMatch
        case .readAloudWord: .match
        default: nil
        }
    }

    /// The attributes used on a terminal without colours (or with `NO_COLOR`), so that the
    /// interface stays legible: selections and the status line in reverse video.
    var monochrome: CellStyle.Attributes {
        switch self {
        case .heading, .title, .dialogTitle, .header: [.bold]
        case .link, .note: [.underline]
        case .secondary, .image: [.dim]
        case .selection, .status, .cursor: [.reverse]
        case .match: [.underline, .bold]
        case .currentMatch: [.reverse, .bold]
        case .error: [.bold]
        case .input: [.underline]
        case .highlightYellow, .highlightGreen, .highlightBlue, .highlightPink, .highlightOrange, .highlightPurple: [.reverse]
        case .readAloud: ThemeElement.currentMatch.monochrome
        case .readAloudWord: ThemeElement.match.monochrome
        default: []
        }
    }
}

/// A colour theme: a style for each ``ThemeElement``, read from a TOML file (`Themes/*.toml`).
///
/// Each element is a table with `fg` and `bg` (a 256-colour index, a basic colour name, or
/// `#rrggbb`), optional `fg16`/`bg16` used on 16- or 8-colour terminals (else the 256-colour
/// value is reduced to the nearest basic colour), `attrs` (`bold`, `dim`, `italic`,
/// `underline`, `reverse`) and `mono` (the attributes used without colours); a highlight's
/// table also has `ink`. An element left out takes the `text` colours — a highlight colour,
/// or a key of one, takes ``HighlightTheme``'s defaults instead.
public struct Theme: Sendable {
    public let name: String
    private let definitions: [ThemeElement: Definition]

    struct Definition: Sendable {
        var foreground: TerminalColor?
        var background: TerminalColor?
        var foreground16: TerminalColor?
        var background16: TerminalColor?
        var attributes: CellStyle.Attributes = []
        var monochrome: CellStyle.Attributes?
        /// A highlight's underline and strikethrough colour.
        var ink: TerminalColor?
    }

    /// A theme without colours: the monochrome attributes only.
    public static let plain = Theme(name: "plain", definitions: [:])

    init(name: String, definitions: [ThemeElement: Definition]) {
        self.name = name
        self.definitions = definitions
    }

    /// Parses a theme file.
    public init(name: String, toml: String) throws(TOMLError) {
        let root = try TOMLParser.parse(toml)
        var definitions: [ThemeElement: Definition] = [:]
        for element in ThemeElement.allCases {
            guard let table = root[element.rawValue]?.table else { continue }
            func color(_ key: String) throws(TOMLError) -> TerminalColor? {
                guard let value = table[key] else { return nil }
                let text = value.integer.map(String.init) ?? value.string ?? ""
                guard let color = TerminalColor(name: text) else {
                    throw TOMLError(line: 0, message: "[\(element.rawValue)] \(key): unknown colour \"\(text)\"")
                }
                return color
            }
            func attributes(_ key: String) throws(TOMLError) -> CellStyle.Attributes? {
                guard let names = table[key]?.strings else { return nil }
                var result: CellStyle.Attributes = []
                for name in names {
                    switch name {
                    case "bold": result.insert(.bold)
                    case "dim": result.insert(.dim)
                    case "italic": result.insert(.italic)
                    case "underline": result.insert(.underline)
                    case "reverse": result.insert(.reverse)
                    default: throw TOMLError(line: 0, message: "[\(element.rawValue)] \(key): unknown attribute \"\(name)\"")
                    }
                }
                return result
            }
            definitions[element] = Definition(foreground: try color("fg"), background: try color("bg"),
                                              foreground16: try color("fg16"), background16: try color("bg16"),
                                              attributes: try attributes("attrs") ?? [], monochrome: try attributes("mono"),
                                              ink: try color("ink"))
        }
        self.init(name: root["name"]?.string ?? name, definitions: definitions)
    }

    /// The styles of every element for a terminal of `colorCount` colours (0: none).
    public func palette(colorCount: Int) -> ThemePalette {
        var styles: [ThemeElement: CellStyle] = [:]
        var inks: [ThemeElement: TerminalColor] = [:]
        let base = definitions[.text] ?? Definition()
        for element in ThemeElement.allCases {
            let defaults = HighlightTheme.defaults[element]
            let own = definitions[element] ?? element.borrowed.flatMap { definitions[$0] }
            let definition = defaults.map { HighlightTheme.merged(own, over: $0) } ?? own ?? Definition()
            guard colorCount > 0 else {
                styles[element] = CellStyle(attributes: definition.monochrome ?? element.monochrome)
                continue
            }
            let useBasic = colorCount < 256
            func pick(_ full: TerminalColor?, _ basic: TerminalColor?) -> TerminalColor? {
                (useBasic ? (basic ?? full) : full)?.reduced(to: colorCount)
            }
            let foreground = pick(definition.foreground, definition.foreground16) ?? pick(base.foreground, base.foreground16) ?? .default
            let background = pick(definition.background, definition.background16) ?? pick(base.background, base.background16) ?? .default
            let attributes = own == nil && defaults == nil ? element.monochrome : definition.attributes
            styles[element] = CellStyle(foreground: foreground, background: background, attributes: attributes)
            if let ink = definition.ink { inks[element] = ink.reduced(to: colorCount) }
        }
        return ThemePalette(name: name, styles: styles, inks: inks)
    }
}

/// A theme resolved for the terminal in use.
public struct ThemePalette: Sendable {
    public let name: String
    let styles: [ThemeElement: CellStyle]
    /// The highlights' underline and strikethrough colours.
    let inks: [ThemeElement: TerminalColor]

    public subscript(element: ThemeElement) -> CellStyle { styles[element] ?? .plain }

    /// The underline and strikethrough colour of a highlight element (its foreground when the
    /// theme gives none, as without colours).
    public func ink(_ element: ThemeElement) -> TerminalColor { inks[element] ?? self[element].foreground }
}
