import FoundationEssentials
import Pictures
import Shared
import TextLayout
#if canImport(Glibc)
import Glibc
#endif

/// The settings of `$XDG_CONFIG_HOME/lectern/config.toml`:
///
/// ```toml
/// theme = "sepia"            # default, dark, light, sepia, high-contrast, or themes/NAME.toml
/// images = "auto"            # auto, kitty, sixel, iterm, symbols, off (LECTERN_IMAGES wins)
/// [reader]
/// text_width = 72            # the widest text column, in cells (0: the window's width)
/// margin = 2                 # cells kept blank on each side
/// justify = false            # full justification
/// paragraph_indent = 2
/// paragraph_spacing = 0      # blank lines between paragraphs
/// bidi = "lectern"           # lectern: reorder and shape right-to-left text; terminal: leave it to the terminal
/// [keys]
/// page_down = ["space", "pgdn", "J"]   # action = keys (see `?` in the reader)
/// ```
public struct ReaderConfig: Sendable {
    public var themeName = "default"
    public var textWidth = 80
    public var margin = 2
    public var justify = false
    public var paragraphIndent = 2
    /// Blank lines between paragraphs (`[reader] paragraph_spacing`, 0 to 3).
    public var paragraphSpacing = 0
    /// Who orders right-to-left text on screen (`[reader] bidi`).
    public var bidi: BidiMode = .lectern
    /// How pictures are drawn (`LECTERN_IMAGES` in the environment wins over it).
    public var images: PictureSetting = .auto
    public var keyMap = KeyMap()
    /// What was wrong in the file (shown once in the status line; never fatal).
    public var warnings: [String] = []

    public init() {}

    /// The file's location.
    public static var path: String { XDGDirectories.config + "/config.toml" }

    /// Reads `path`; a missing file gives the defaults, a damaged one the defaults with a warning.
    public static func load(path: String = ReaderConfig.path) -> ReaderConfig {
        var config = ReaderConfig()
        guard let data = FileManager.default.contents(atPath: path) else { return config }
        let root: [String: TOMLValue]
        do {
            root = try TOMLParser.parse(String(decoding: data, as: UTF8.self))
        } catch {
            config.warnings.append("config.toml \(error.description); using the defaults")
            return config
        }
        config.apply(root)
        return config
    }

    mutating func apply(_ root: [String: TOMLValue]) {
        if let theme = root["theme"]?.string { themeName = theme }
        if let value = root["images"]?.string {
            if let setting = PictureSetting(rawValue: value.lowercased()) {
                images = setting
            } else {
                warnings.append("config.toml images: \"\(value)\" is not one of auto, kitty, sixel, iterm, symbols, off")
            }
        }
        if let reader = root["reader"]?.table {
            if let width = reader["text_width"]?.integer { textWidth = max(0, width) }
            if let margin = reader["margin"]?.integer { self.margin = max(0, min(margin, 40)) }
            if let justify = reader["justify"]?.boolean { self.justify = justify }
            if let indent = reader["paragraph_indent"]?.integer { paragraphIndent = max(0, min(indent, 8)) }
            if let spacing = reader["paragraph_spacing"]?.integer { paragraphSpacing = max(0, min(spacing, 3)) }
            if let value = reader["bidi"]?.string {
                if let mode = BidiMode(rawValue: value.lowercased()) {
                    bidi = mode
                } else {
                    warnings.append("config.toml [reader] bidi: \"\(value)\" is not one of lectern, terminal")
                }
            }
        }
        var overrides: [String: [String]] = [:]
        for (action, value) in root["keys"]?.table ?? [:] {
            if let names = value.strings { overrides[action] = names } else { warnings.append("config.toml [keys] \(action): expected a list of keys") }
        }
        var keyWarnings: [String] = []
        keyMap = KeyMap(overrides: overrides, warnings: &keyWarnings)
        warnings += keyWarnings
    }

    /// Writes `theme = "name"` into the file, keeping everything else it holds.
    public static func saveTheme(_ name: String, path: String = ReaderConfig.path) throws {
        try save("theme", "\"\(name)\"", inTable: nil, path: path)
    }

    /// Saves one reading setting changed with a key in the reader (`[reader]` table): only
    /// its line changes.
    public static func saveReaderSetting(_ key: String, _ value: String, path: String = ReaderConfig.path) throws {
        try save(key, value, inTable: "reader", path: path)
    }

    /// Rewrites one setting of `config.toml` (``ConfigFileEditor``), atomically.
    static func save(_ key: String, _ value: String, inTable table: String?, path: String) throws {
        let existing = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let text = ConfigFileEditor.setting(key, to: value, inTable: table, in: existing)
        if let slash = path.lastIndex(of: "/") { XDGDirectories.ensure(String(path[..<slash])) }
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else {
            throw LibraryConfigError(message: "cannot write \(path)")
        }
        guard rename(temporary, path) == 0 else { throw LibraryConfigError(message: "cannot write \(path)") }
    }

    /// The theme called `name`: `$XDG_CONFIG_HOME/lectern/themes/NAME.toml`, else a built-in
    /// one; nil when there is none (or it does not parse, with the reason in `warnings`).
    public static func theme(named name: String, warnings: inout [String]) -> Theme? {
        let userPath = XDGDirectories.config + "/themes/\(name).toml"
        if let data = FileManager.default.contents(atPath: userPath) {
            do {
                return try Theme(name: name, toml: String(decoding: data, as: UTF8.self))
            } catch {
                warnings.append("themes/\(name).toml \(error.description)")
            }
        }
        guard let text = BuiltinThemes.files[name] else { return nil }
        return try? Theme(name: name, toml: text)
    }

    /// The theme after `name` in the built-in order.
    public static func nextThemeName(after name: String) -> String {
        let order = BuiltinThemes.order
        guard let index = order.firstIndex(of: name) else { return order[0] }
        return order[(index + 1) % order.count]
    }
}

struct LibraryConfigError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
