import LibPoppler

/// One line of a page's text with where poppler's layout put it (top-left origin, points).
struct PageLine: Sendable, Hashable {
    var text: String
    var top: Double
    var bottom: Double
    var left: Double
    var right: Double
    /// The height of its characters (the median box): the font size, near enough.
    var size: Double

    var width: Double { right - left }

    /// The lines of `text` (split at `"\n"`), placed with `boxes`, one per scalar of `text`;
    /// nil when the two do not line up. Lines without a visible character are left out,
    /// and a blank line in the text comes back as an empty line (a break).
    static func lines(_ text: String, boxes: [PDFCharacterBox]) -> [PageLine]? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == boxes.count else { return nil }
        var lines: [PageLine] = []
        var start = 0
        func close(_ end: Int) {
            let range = start..<end
            let visible = range.filter { !scalars[$0].properties.isWhitespace }
            let lineText = String(String.UnicodeScalarView(scalars[range])).trimmingWhitespace
            if visible.isEmpty {
                if lines.last?.text.isEmpty == false { lines.append(PageLine(text: "", top: 0, bottom: 0, left: 0, right: 0, size: 0)) }
                return
            }
            let heights = visible.map { boxes[$0].y2 - boxes[$0].y1 }.sorted()
            lines.append(PageLine(text: lineText,
                                  top: visible.map { boxes[$0].y1 }.min()!, bottom: visible.map { boxes[$0].y2 }.max()!,
                                  left: visible.map { boxes[$0].x1 }.min()!, right: visible.map { boxes[$0].x2 }.max()!,
                                  size: heights[heights.count / 2]))
        }
        for (index, scalar) in scalars.enumerated() where scalar == "\n" {
            close(index)
            start = index + 1
        }
        close(scalars.count)
        while lines.last?.text.isEmpty == true { lines.removeLast() }
        return lines
    }
}

extension String {
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
