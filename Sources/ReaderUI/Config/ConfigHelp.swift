/// The settings of `config.toml`, as the help screen lists them (the README's table says the
/// same at more length). Descriptions keep to words of 15 cells or fewer, so that the
/// narrowest help popup wraps them without cutting one.
enum ConfigHelp {
    static let lines: [String] = [
        "Settings: $XDG_CONFIG_HOME/lectern/config.toml",
        "  " + TextFitting.pad("theme", to: 18) + " default, dark, light, sepia, high-contrast, or a file of themes/ (T, saved)",
        "  " + TextFitting.pad("images", to: 18) + " auto, kitty, sixel, iterm, symbols, off (LECTERN_IMAGES wins)",
        "[reader]",
        "  " + TextFitting.pad("text_width", to: 18) + " the widest text column in cells, 0 for the window (w W, saved)",
        "  " + TextFitting.pad("margin", to: 18) + " blank cells on each side, 0 to 40 (M, saved)",
        "  " + TextFitting.pad("justify", to: 18) + " true or false (J, saved)",
        "  " + TextFitting.pad("paragraph_indent", to: 18) + " first-line indent, 0 to 8 cells (I, saved)",
        "  " + TextFitting.pad("paragraph_spacing", to: 18) + " blank lines between paragraphs, 0 to 3 (s, saved)",
        "  " + TextFitting.pad("bidi", to: 18) + " \"lectern\": right-to-left lines reordered, Arabic letters joined; \"terminal\": logical order, for terminals that reorder",
        "  " + TextFitting.pad("read_skippable", to: 18) + " true: a narration also reads page numbers, notes and sidebars (default false)",
        "[keys]",
        "  " + TextFitting.pad("ACTION", to: 18) + " [\"key\", …], ACTION one of these names:",
    ] + actionNames + [
        "LECTERN_PRINT_COMMAND in the environment: the program that prints, instead of lp (none: save to a file)",
    ]

    /// The action names `[keys]` takes, packed into lines short enough never to be wrapped (the
    /// narrowest popup is 36 cells; one name is up to 22).
    static var actionNames: [String] {
        var lines: [String] = []
        var line = "   "
        for name in ReaderAction.allCases.map(\.rawValue) {
            if line.count + 1 + name.count > 34 { lines.append(line); line = "   " }
            line += " " + name
        }
        return lines + [line]
    }
}
