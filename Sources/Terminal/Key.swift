/// One key press, decoded from ncurses' `get_wch`.
public enum Key: Sendable, Hashable {
    /// A printable character (letters, digits, punctuation, space, CJK…).
    case character(Character)
    /// Ctrl with a letter: `.control("d")` for Ctrl-D.
    case control(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, tab, backTab, delete, insert
    /// F1…F12.
    case function(Int)
    /// The window changed size (ncurses' `KEY_RESIZE`).
    case resize
    /// A key ncurses knows but Lectern gives no name.
    case other(Int32)

    /// The name used in `config.toml` and in the help screen: `j`, `space`, `C-d`, `pgdn`, `F2`…
    public var name: String {
        switch self {
        case .character(" "): "space"
        case .character(let character): String(character)
        case .control(let character): "C-\(character)"
        case .up: "up"
        case .down: "down"
        case .left: "left"
        case .right: "right"
        case .pageUp: "pgup"
        case .pageDown: "pgdn"
        case .home: "home"
        case .end: "end"
        case .enter: "enter"
        case .escape: "esc"
        case .backspace: "backspace"
        case .tab: "tab"
        case .backTab: "S-tab"
        case .delete: "del"
        case .insert: "ins"
        case .function(let number): "F\(number)"
        case .resize: "resize"
        case .other(let code): "key\(code)"
        }
    }

    /// Parses a key name as written in `config.toml` (the inverse of ``name``).
    public init?(name: String) {
        let lowered = name.lowercased()
        switch lowered {
        case "space": self = .character(" ")
        case "up": self = .up
        case "down": self = .down
        case "left": self = .left
        case "right": self = .right
        case "pgup", "pageup": self = .pageUp
        case "pgdn", "pagedown": self = .pageDown
        case "home": self = .home
        case "end": self = .end
        case "enter", "return": self = .enter
        case "esc", "escape": self = .escape
        case "backspace": self = .backspace
        case "tab": self = .tab
        case "s-tab", "backtab": self = .backTab
        case "del", "delete": self = .delete
        case "ins", "insert": self = .insert
        default:
            if name.count == 1, let character = name.first {
                self = .character(character)
            } else if lowered.hasPrefix("c-"), name.count == 3, let character = lowered.last {
                self = .control(character)
            } else if lowered.hasPrefix("f"), let number = Int(lowered.dropFirst()), (1...24).contains(number) {
                self = .function(number)
            } else {
                return nil
            }
        }
    }

    /// The character typed, for text fields (nil for keys that are not text).
    public var text: Character? {
        if case .character(let character) = self { return character }
        return nil
    }
}
