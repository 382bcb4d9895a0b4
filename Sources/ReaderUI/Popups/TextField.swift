import Terminal

/// A one-line text input: typing, Backspace, Ctrl-U to clear, Ctrl-W to delete a word,
/// Enter to submit, Esc to cancel.
public struct TextField: Sendable, Hashable {
    public private(set) var text: [Character]

    public init(_ text: String = "") {
        self.text = Array(text)
    }

    public var string: String { String(text) }

    /// What a key did to the field.
    public enum Outcome: Sendable, Hashable {
        case edited
        case submitted(String)
        case cancelled
        /// The key is not for the field (Tab, arrows…): the owner may use it.
        case ignored
    }

    public mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .character(let character):
            text.append(character)
            return .edited
        case .backspace, .control("h"):
            if !text.isEmpty { text.removeLast() }
            return .edited
        case .control("u"):
            text.removeAll()
            return .edited
        case .control("w"):
            while text.last == " " { text.removeLast() }
            while let last = text.last, last != " " { text.removeLast() }
            return .edited
        case .enter:
            return .submitted(string)
        case .escape, .control("c"), .control("g"):
            return .cancelled
        default:
            return .ignored
        }
    }

    public mutating func set(_ value: String) {
        text = Array(value)
    }
}
