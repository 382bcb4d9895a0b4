import Annotations
import FoundationEssentials
import Terminal

/// A highlight opened (`H` on it, its hint label, or just made): its quote and note, and the
/// keys that change it — a digit its colour, `s` its style, `n` or Enter its note, `d` then
/// `y` deletes it. Decided here, without the terminal; the application stores the result.
struct AnnotationDetailState: Sendable {
    private(set) var annotation: Annotation
    /// Whether `d` was pressed: `y` now deletes, any other key keeps it.
    private(set) var confirmingDelete = false

    init(annotation: Annotation) {
        self.annotation = annotation
    }

    /// What a key in the popup asks for.
    enum Effect: Sendable, Equatable {
        case close
        case stay
        /// The colour or style changed: store it (the popup stays).
        case changed(Annotation)
        /// Open the note editor on it.
        case editNote(Annotation)
        /// Delete it (the popup closes).
        case delete(Annotation)
    }

    mutating func handle(_ key: Key) -> Effect {
        if confirmingDelete {
            confirmingDelete = false
            return key == .character("y") || key == .character("Y") ? .delete(annotation) : .stay
        }
        switch key {
        case .escape, .character("q"), .control("c"):
            return .close
        case .character(let character):
            if let digit = character.wholeNumberValue, digit >= 1, digit <= HighlightColor.allCases.count {
                return change { $0.color = HighlightColor.allCases[digit - 1] }
            }
            switch character {
            case "s": return change { $0.style = Self.next($0.style) }
            case "n", "e": return .editNote(annotation)
            case "d": confirmingDelete = true; return .stay
            default: return .stay
            }
        case .enter:
            return .editNote(annotation)
        case .delete:
            confirmingDelete = true
            return .stay
        default:
            return .stay
        }
    }

    private mutating func change(_ edit: (inout Annotation) -> Void) -> Effect {
        var changed = annotation
        edit(&changed)
        guard changed != annotation else { return .stay }
        changed.modified = Date()
        annotation = changed
        return .changed(changed)
    }

    static func next(_ style: HighlightStyle) -> HighlightStyle {
        let all = HighlightStyle.allCases
        return all[(all.firstIndex(of: style)! + 1) % all.count]
    }

    /// The name a style is shown with.
    static func name(_ style: HighlightStyle) -> String {
        switch style {
        case .solid: "background"
        case .underline: "underline"
        case .strikethrough: "strike"
        }
    }
}
