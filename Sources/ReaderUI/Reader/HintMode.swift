import TextLayout

/// A link or note reference shown on the page: where it starts on screen and where it leads.
public struct PageTarget: Sendable, Hashable {
    /// The link (its index in the document's links: two links to one place stay two targets).
    public let linkIndex: Int
    public let target: LinkTarget
    /// Whether it opens a note in a popup rather than going somewhere.
    public let isNote: Bool
    /// The line of the layout and the column of its first cell.
    public let line: Int
    public let column: Int
    /// The highlight it opens (#31) instead of a link: hint mode labels highlights too.
    public var annotationID: String?

    /// The links and note references of `lines` of `layout`, in reading order (top to bottom,
    /// then left to right), each once.
    public static func collect(in layout: LaidOutDocument, lines: Range<Int>) -> [PageTarget] {
        var seen: Set<Int> = []
        var targets: [PageTarget] = []
        for index in lines where layout.lines.indices.contains(index) {
            for span in layout.lines[index].spans.sorted(by: { $0.column < $1.column }) {
                // Text of a link only: a linked picture's placeholder is no label's place.
                guard span.style.role == .link || span.style.role == .noteReference,
                      let linkIndex = span.style.linkIndex, let target = layout.document.link(of: span.style),
                      !seen.contains(linkIndex) else { continue }
                seen.insert(linkIndex)
                targets.append(PageTarget(linkIndex: linkIndex, target: target,
                                          isNote: span.style.role == .noteReference,
                                          line: index, column: span.column))
            }
        }
        return targets
    }
}

/// Hint mode (`f`): every link and note reference of the page carries a label of letters;
/// typing a label picks its target, as in vimium or qutebrowser.
public struct HintMode: Sendable {
    /// The letters labels are made of, easiest to reach first.
    static let alphabet = Array("asdfghjklqwertyuiopzxcvbnm")

    public let targets: [PageTarget]
    /// The label of each target, in the same order.
    public let labels: [String]
    /// The letters typed so far.
    public private(set) var typed = ""

    public init(targets: [PageTarget]) {
        self.targets = targets
        labels = Self.labels(count: targets.count)
    }

    /// `count` labels, none the start of another: one letter each when they suffice, else
    /// two letters each.
    static func labels(count: Int) -> [String] {
        if count <= alphabet.count { return alphabet.prefix(count).map { String($0) } }
        var labels: [String] = []
        for first in alphabet {
            for second in alphabet {
                labels.append(String([first, second]))
                if labels.count == count { return labels }
            }
        }
        return labels
    }

    /// What a typed letter leads to.
    public enum Outcome: Sendable, Hashable {
        /// The label is complete: follow this target.
        case chosen(PageTarget)
        /// The start of one or more labels: wait for the next letter.
        case pending
        /// No label starts so: hint mode ends.
        case noMatch
    }

    public mutating func type(_ character: Character) -> Outcome {
        let candidate = typed + String(character).lowercased()
        if let index = labels.firstIndex(of: candidate) { return .chosen(targets[index]) }
        guard labels.contains(where: { $0.hasPrefix(candidate) }) else { return .noMatch }
        typed = candidate
        return .pending
    }

    /// The labels still possible after what was typed, with their targets.
    public var shown: [(label: String, target: PageTarget)] {
        zip(labels, targets).filter { $0.0.hasPrefix(typed) }.map { ($0.0, $0.1) }
    }
}
