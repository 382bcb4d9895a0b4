/// Pictures on a screen that may be a tmux pane. tmux keeps its own copy of the screen and
/// drops the kitty, sixel and iTerm2 image sequences an application writes; with
/// `allow-passthrough` it forwards them, but to wherever the outer terminal's cursor is, not
/// into the pane, and they are not redrawn when the pane is. Text cells are what survives.
extension PictureOutput {
    /// Whether `environment` is a tmux (or screen) pane.
    public static func insideMultiplexer(_ environment: [String: String]) -> Bool {
        let term = environment["TERM"] ?? ""
        return environment["TMUX"] != nil || term.hasPrefix("tmux") || term.hasPrefix("screen")
    }

    /// What the reader draws with on its screen: ``resolve(setting:environment:answers:)``, then
    /// symbols instead of a pixel protocol that cannot reach the screen through tmux, with
    /// ``note`` saying why (a forced protocol would otherwise give blank pages without a word).
    public static func forScreen(setting: PictureSetting, environment: [String: String], answers: TerminalAnswers? = nil) -> PictureOutput {
        var output = resolve(setting: setting, environment: environment, answers: answers)
        guard let chosen = output.protocol, !chosen.isTextCells, insideMultiplexer(environment) else { return output }
        output.protocol = .symbols
        // Short enough for an 80-column status line beside the page figures.
        let name = chosen == .iterm ? "iTerm2" : chosen.rawValue
        output.note = "Symbols, as tmux drops \(name): \(remedy(setting: setting, environment: environment))"
        return output
    }

    /// What to set instead of a pixel protocol forced inside tmux: the setting that forced it
    /// back to automatic (which draws symbols there without a word), or no tmux.
    static func remedy(setting: PictureSetting, environment: [String: String]) -> String {
        let byEnvironment = environment["LECTERN_IMAGES"].flatMap { PictureSetting(rawValue: $0.lowercased()) } != nil
        return (byEnvironment ? "unset LECTERN_IMAGES" : "set images = \"auto\"") + " or run outside tmux"
    }

    /// One line for `lectern doctor`: the protocol the reader will use and why.
    /// `answers`: what the terminal said when asked, as the reader asks it.
    public static func describe(setting: PictureSetting, environment: [String: String], answers: TerminalAnswers? = nil) -> String {
        let forced = environment["LECTERN_IMAGES"].flatMap { PictureSetting(rawValue: $0.lowercased()) }
        let asked = forced ?? setting
        let source = forced.map { "LECTERN_IMAGES=\($0.rawValue)" } ?? (setting == .auto ? "detected" : "images = \(setting.rawValue)")
        let wanted = resolve(setting: setting, environment: environment, answers: answers).protocol
        guard let used = forScreen(setting: setting, environment: environment, answers: answers).protocol else { return "off (\(source): text placeholders)" }
        // Every protocol is drawn by libchafa: without it (or gdk-pixbuf) there are no pictures.
        guard PicturesLibrary.isAvailable else {
            return "none: libchafa or gdk-pixbuf not found (Debian: libchafa0 libgdk-pixbuf-2.0-0); text placeholders"
        }
        let name = used == .symbols ? "symbols via chafa" : "\(used.displayName) via chafa"
        if used != wanted, let wanted {
            return "\(name) (\(source), but tmux drops \(wanted.displayName): \(remedy(setting: setting, environment: environment)))"
        }
        if asked == .auto, insideMultiplexer(environment) { return "\(name) (inside tmux, which drops kitty and sixel pictures)" }
        return "\(name) (\(source))"
    }
}

extension PictureProtocol {
    /// The protocol's name in messages.
    public var displayName: String {
        switch self {
        case .kitty: "kitty graphics"
        case .sixel: "sixel"
        case .iterm: "iTerm2"
        case .symbols: "symbols"
        }
    }
}
