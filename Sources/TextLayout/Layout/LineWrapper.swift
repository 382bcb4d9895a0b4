/// Greedy line breaking by cell width: each line takes as many clusters as fit, ending at the
/// last break opportunity; a word wider than the line is broken between clusters; a cluster
/// is never split. Spaces at the end of a line hang (they do not count against the width).
enum LineWrapper {
    /// How a line ends.
    enum End: Sendable, Hashable {
        /// At a break opportunity, or inside a word too long for a line.
        case wrapped
        /// At a soft hyphen: a hyphen is shown.
        case softHyphen
        /// At a `"\n"` (`<br>`, a line of preformatted text).
        case mandatory
        /// The end of the text.
        case last
    }

    struct Line: Sendable, Hashable {
        var range: Range<Int>
        var end: End
    }

    /// Cuts `text` into lines of at most `firstWidth` cells for the first line and
    /// `restWidth` for the others (both at least 2). Preformatted text breaks only at line
    /// feeds and where a line is too wide.
    static func wrap(_ text: InlineText, firstWidth: Int, restWidth: Int, preformatted: Bool) -> [Line] {
        var lines: [Line] = []
        let count = text.count
        var start = 0
        while start < count {
            let available = lines.isEmpty ? firstWidth : restWidth
            var width = 0, index = start
            var candidate: (end: Int, kind: End)?
            var line = Line(range: start..<count, end: .last)
            while index < count {
                let cluster = text.width(at: index)
                let hangs = !preformatted && text.lead(at: index) == 0x20
                if !hangs, width + cluster > available, index > start {
                    if let candidate {
                        line = Line(range: start..<candidate.end, end: candidate.kind)
                    } else {
                        // Too long for a line: cut between clusters, still keeping closing
                        // punctuation off the next line's start and opening brackets off this end.
                        var cut = index
                        while !preformatted, cut > start + 1,
                              BreakRules.mayNotStartLine(text.lead(at: cut)) || BreakRules.mayNotEndLine(text.lead(at: cut - 1)) {
                            cut -= 1
                        }
                        line = Line(range: start..<cut, end: .wrapped)
                    }
                    break
                }
                width += cluster
                switch text.breaks[index] {
                case .mandatory:
                    line = Line(range: start..<(index + 1), end: .mandatory)
                case .allowed:
                    candidate = (index + 1, .wrapped)
                case .softHyphen:
                    if width + 1 <= available { candidate = (index + 1, .softHyphen) }
                case .none:
                    break
                }
                if line.end == .mandatory { break }
                index += 1
            }
            lines.append(line)
            start = line.range.upperBound
        }
        return lines
    }
}
