/// Decides how pictures are drawn from the setting and the environment. The environment's
/// `LECTERN_IMAGES` wins over the configuration file.
public struct PictureOutput: Sendable, Equatable {
    /// Nil when pictures are off.
    public var `protocol`: PictureProtocol?
    public var colors: PictureColors
    public var cell: CellSize
    /// Why the protocol is not the one asked for, to say once (see ``forScreen(setting:environment:answers:)``).
    public var note: String?

    public init(protocol: PictureProtocol?, colors: PictureColors, cell: CellSize = .typical) {
        self.protocol = `protocol`
        self.colors = colors
        self.cell = cell
    }

    /// What `setting` means in a terminal described by `environment`. `answers` are what the
    /// terminal said when asked (``TerminalAnswers``), when it could be asked.
    public static func resolve(setting: PictureSetting, environment: [String: String], answers: TerminalAnswers? = nil) -> PictureOutput {
        var setting = setting
        if let value = environment["LECTERN_IMAGES"].flatMap({ PictureSetting(rawValue: $0.lowercased()) }) { setting = value }
        let colors = colors(environment: environment)
        let cell = answers?.cellSize ?? .typical
        if setting == .off { return PictureOutput(protocol: nil, colors: colors, cell: cell) }
        if let fixed = setting.fixedProtocol { return PictureOutput(protocol: fixed, colors: colors, cell: cell) }
        return PictureOutput(protocol: detect(environment: environment, answers: answers), colors: colors, cell: cell)
    }

    /// The protocol the terminal is known to support, symbols when unsure.
    static func detect(environment: [String: String], answers: TerminalAnswers?) -> PictureProtocol {
        // Inside tmux, pixels would need passthrough and would not move with the pane's
        // content: text cells are what survives there.
        if insideMultiplexer(environment) { return .symbols }
        if answers?.supportsKitty == true { return .kitty }
        let term = environment["TERM"] ?? "", program = environment["TERM_PROGRAM"] ?? ""
        if environment["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" || term == "xterm-ghostty" || program == "ghostty" { return .kitty }
        if program == "iTerm.app" || program == "WezTerm" || program == "mintty" { return .iterm }
        if answers?.supportsSixel == true { return .sixel }
        if term.hasPrefix("foot") || term.hasPrefix("mlterm") || term.hasPrefix("contour") { return .sixel }
        return .symbols
    }

    static func colors(environment: [String: String]) -> PictureColors {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .monochrome }
        let colorterm = (environment["COLORTERM"] ?? "").lowercased()
        if colorterm == "truecolor" || colorterm == "24bit" || (environment["TERM"] ?? "").hasSuffix("-direct") { return .truecolor }
        return .indexed256
    }
}
