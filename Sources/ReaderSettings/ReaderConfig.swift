import FoundationEssentials
import Pictures
import Shared
import Terminal
import TextLayout
#if canImport(Glibc)
import Glibc
#endif

/// The settings of `$XDG_CONFIG_HOME/lectern/config.toml`:
///
/// ```toml
/// theme = "sepia"            # default, dark, light, sepia, high-contrast, or themes/NAME.toml
/// images = "auto"            # auto, kitty, sixel, iterm, symbols, off (LECTERN_IMAGES wins)
/// calibre_library = "~/Calibre Library"   # imported, and its new books at each start
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
    /// Whether a narration also reads page numbers, notes, sidebars and other skippable
    /// structures (`[reader] read_skippable`; skipped by default).
    public var readSkippable = false
    /// How pictures are drawn (`LECTERN_IMAGES` in the environment wins over it).
    public var images: PictureSetting = .auto
    /// A calibre library kept on the shelf (`calibre_library`, "~/" expanded): imported as by
    /// `lectern import --calibre`, then looked at again at each start.
    public var calibreLibrary: String?
    public var keyMap = KeyMap()
    /// What was wrong in the file (shown once in the status line; never fatal).
    public var warnings: [String] = []

    /// What the status line says of `warnings` at start: the first, and how many more there
    /// are (`lectern doctor` lists them all); nil without any.
    public static func warningSummary(_ warnings: [String]) -> String? {
        guard let first = warnings.first else { return nil }
        let more = warnings.count - 1
        return more == 0 ? first : first + " (and \(more) more: lectern doctor lists them)"
    }

    public init() {}

    /// The file's location.
    public static var path: String { XDGDirectories.config + "/config.toml" }

    /// Reads `path`; a missing file gives the defaults, a damaged one the defaults with a warning.
    public static func load(path: String = ReaderConfig.path) -> ReaderConfig {
        var config = ReaderConfig()
        guard let data = FileManager.default.contents(atPath: path) else { return config }
        let root: [String: TOMLValue]
        var lines: [String: Int] = [:]
        do {
            root = try TOMLParser.parse(String(decoding: data, as: UTF8.self), lines: &lines)
        } catch {
            config.warnings.append("config.toml \(error.description); using the defaults")
            return config
        }
        config.apply(root, lines: lines)
        return config
    }

    /// Takes the settings of `root`; every unknown key and wrong value is reported once, with
    /// its line, and the default kept (a typo must not pass for a setting that is in force).
    mutating func apply(_ root: [String: TOMLValue], lines: [String: Int] = [:]) {
        var check = ConfigChecker(lines: lines)
        if let theme = check.string(root["theme"], "theme") {
            if ReaderConfig.themeExists(theme) {
                themeName = theme
            } else {
                check.warn("theme", "\"\(theme)\" is not a theme (\(BuiltinThemes.order.joined(separator: ", ")), or themes/\(theme).toml)")
            }
        }
        if let value = check.string(root["images"], "images") {
            if let setting = PictureSetting(rawValue: value.lowercased()) {
                images = setting
            } else {
                check.warn("images", "\"\(value)\" is not one of auto, kitty, sixel, iterm, symbols, off")
            }
        }
        if let value = check.string(root["calibre_library"], "calibre_library"), !value.isEmpty {
            let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
            calibreLibrary = value.hasPrefix("~/") && !home.isEmpty ? home + value.dropFirst() : value
        }
        if let reader = check.table(root["reader"], "reader") {
            if let width = check.integer(reader["text_width"], "reader.text_width", in: 0...10_000) { textWidth = width }
            if let margin = check.integer(reader["margin"], "reader.margin", in: 0...40) { self.margin = margin }
            if let justify = check.boolean(reader["justify"], "reader.justify") { self.justify = justify }
            if let read = check.boolean(reader["read_skippable"], "reader.read_skippable") { readSkippable = read }
            if let indent = check.integer(reader["paragraph_indent"], "reader.paragraph_indent", in: 0...8) { paragraphIndent = indent }
            if let spacing = check.integer(reader["paragraph_spacing"], "reader.paragraph_spacing", in: 0...3) { paragraphSpacing = spacing }
            if let value = check.string(reader["bidi"], "reader.bidi") {
                if let mode = BidiMode(rawValue: value.lowercased()) {
                    bidi = mode
                } else {
                    check.warn("reader.bidi", "\"\(value)\" is not one of lectern, terminal")
                }
            }
            check.unknownKeys(of: reader, in: "reader", known: Self.readerKeys)
        }
        var overrides: [String: [String]] = [:]
        for (action, value) in (check.table(root["keys"], "keys") ?? [:]).sorted(by: { $0.key < $1.key }) {
            let path = "keys." + action
            guard ReaderAction(rawValue: action) != nil else {
                check.warn(path, "unknown action (the actions: \(ReaderAction.allCases.map(\.rawValue).joined(separator: ", ")))")
                continue
            }
            guard let names = value.strings else { check.warn(path, "expected a list of keys"); continue }
            for name in names where Key(name: name) == nil { check.warn(path, "unknown key \"\(name)\"") }
            overrides[action] = names.filter { Key(name: $0) != nil }
        }
        check.unknownKeys(of: root, in: nil, known: Self.topKeys)
        // Every problem of [keys] was reported above, with its line.
        var keyWarnings: [String] = []
        keyMap = KeyMap(overrides: overrides, warnings: &keyWarnings)
        warnings += check.warnings
    }

    static let topKeys: Set<String> = ["theme", "images", "calibre_library", "reader", "keys"]
    static let readerKeys: Set<String> = ["text_width", "margin", "justify", "paragraph_indent", "paragraph_spacing", "bidi", "read_skippable"]

    /// Whether `theme = name` names a built-in theme or a file of `themes/`.
    static func themeExists(_ name: String) -> Bool {
        BuiltinThemes.files[name] != nil || FileManager.default.fileExists(atPath: XDGDirectories.config + "/themes/\(name).toml")
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
