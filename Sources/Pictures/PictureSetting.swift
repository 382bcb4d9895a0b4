/// The `images` setting (config.toml, `LECTERN_IMAGES`, `--images`): a protocol, `auto` to
/// detect one, or `off` for the text placeholders.
public enum PictureSetting: String, Sendable, CaseIterable {
    case auto, kitty, sixel, iterm, symbols, off

    /// The protocol this setting asks for; nil for `auto` and `off`.
    public var fixedProtocol: PictureProtocol? {
        switch self {
        case .kitty: .kitty
        case .sixel: .sixel
        case .iterm: .iterm
        case .symbols: .symbols
        case .auto, .off: nil
        }
    }
}

/// Decides how pictures are drawn from the setting and the environment. The environment's
/// `LECTERN_IMAGES` wins over the configuration file.
public struct PictureOutput: Sendable, Equatable {
    /// Nil when pictures are off.
    public var `protocol`: PictureProtocol?
    public var colors: PictureColors
    public var cell: CellSize

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
        if environment["TMUX"] != nil || (environment["TERM"] ?? "").hasPrefix("tmux") || (environment["TERM"] ?? "").hasPrefix("screen") {
            return .symbols
        }
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

/// What a terminal answered to the queries for its graphics abilities: primary device
/// attributes (`CSI c`, whose parameter 4 means sixel), the kitty graphics query, and the cell
/// size in pixels (`CSI 16 t`).
public struct TerminalAnswers: Sendable, Equatable {
    public var supportsSixel: Bool
    public var supportsKitty: Bool
    public var cellSize: CellSize?

    public init(supportsSixel: Bool = false, supportsKitty: Bool = false, cellSize: CellSize? = nil) {
        self.supportsSixel = supportsSixel
        self.supportsKitty = supportsKitty
        self.cellSize = cellSize
    }

    /// The queries, in one write; the terminal answers them in order, the device attributes
    /// last (every terminal answers those), which marks the end of the answers.
    public static let query = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[16t\u{1B}[c"

    /// Reads the answers in `reply`; nil until the device attributes have arrived.
    public static func parse(_ reply: String) -> TerminalAnswers? {
        var answers = TerminalAnswers()
        var complete = false
        for sequence in reply.split(separator: "\u{1B}") {
            if sequence.hasPrefix("[?"), sequence.hasSuffix("c") {
                let parameters = sequence.dropFirst(2).dropLast().split(separator: ";").compactMap { Int($0) }
                answers.supportsSixel = parameters.dropFirst().contains(4)
                complete = true
            } else if sequence.hasPrefix("[6;"), sequence.hasSuffix("t") {
                let values = sequence.dropFirst(3).dropLast().split(separator: ";").compactMap { Int($0) }
                if values.count == 2, values[0] > 0, values[1] > 0 { answers.cellSize = CellSize(width: values[1], height: values[0]) }
            } else if sequence.hasPrefix("_Gi=31;OK") {
                answers.supportsKitty = true
            }
        }
        return complete ? answers : nil
    }
}
