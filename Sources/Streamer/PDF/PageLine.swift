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
    /// A line of a contents page or an index: a title, then far to the right (or after leader
    /// dots) a page number. Such a line is an entry of its own, never run into the next.
    var isEntry = false

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
            if visible.isEmpty {
                if lines.last?.text.isEmpty == false { lines.append(PageLine(text: "", top: 0, bottom: 0, left: 0, right: 0, size: 0)) }
                return
            }
            let heights = visible.map { boxes[$0].y2 - boxes[$0].y1 }.sorted()
            let (spacedText, isEntry) = entry(spaced(scalars, range, boxes: boxes, size: heights[heights.count / 2]))
            let lineText = spacedText.trimmingWhitespace
            lines.append(PageLine(text: lineText,
                                  top: visible.map { boxes[$0].y1 }.min()!, bottom: visible.map { boxes[$0].y2 }.max()!,
                                  left: visible.map { boxes[$0].x1 }.min()!, right: visible.map { boxes[$0].x2 }.max()!,
                                  size: heights[heights.count / 2], isEntry: isEntry))
        }
        for (index, scalar) in scalars.enumerated() where scalar == "\n" {
            close(index)
            start = index + 1
        }
        close(scalars.count)
        while lines.last?.text.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// `text` with its leader dots or wide gap before a closing page number written " … ",
    /// and whether it is such an entry ("1 Foo . . . 2" and "1 Foo\u{1F}2" give "1 Foo … 2").
    static func entry(_ text: String) -> (String, Bool) {
        let plain = text.contains(wideGap) ? text.split(separator: " ").filter { $0 != wideGap }.joined(separator: " ") : text
        var words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard words.count >= 2, let number = words.last, isPageReference(number) else { return (plain, false) }
        words.removeLast()
        var leader = false
        while let last = words.last, !last.isEmpty, last.allSatisfy({ $0 == "." || $0 == "…" || $0 == "·" }) || last == wideGap {
            if last == wideGap || last.count >= 2 || words.count >= 2 && words[words.count - 2].allSatisfy({ $0 == "." }) { leader = true }
            words.removeLast()
        }
        // A word ending in dots ("Foo........2" set without spaces).
        if var last = words.last, last.hasSuffix("...") {
            while last.hasSuffix(".") { last.removeLast() }
            words[words.count - 1] = last
            leader = true
        }
        let title = words.filter { $0 != wideGap }.joined(separator: " ")
        guard leader, !title.isEmpty else { return (plain, false) }
        return (title + " … " + number, true)
    }

    /// A page number at the end of a contents or index line: digits, or a roman number.
    static func isPageReference(_ word: String) -> Bool {
        (word.count <= 5 && word.allSatisfy(\.isASCIIDigit)) || PageStructure.isRomanNumeral(word.lowercased())
    }

    /// What ``spaced(_:_:boxes:size:)`` puts where characters stand far apart: a word of its
    /// own, read by ``entry(_:)`` (a control character no PDF text keeps).
    static let wideGap = "\u{1F}"

    /// The scalars of `range` with a space where two characters with nothing between them
    /// stand far apart: poppler runs a contents entry's title into its page number
    /// ("1 Foo2", where the page shows "1 Foo . . . . 2") and a table's cells into each other.
    static func spaced(_ scalars: [Unicode.Scalar], _ range: Range<Int>, boxes: [PDFCharacterBox], size: Double) -> String {
        var text = String.UnicodeScalarView()
        var previous: Int?
        for index in range {
            let scalar = scalars[index]
            if scalar.properties.isWhitespace {
                previous = nil
            } else {
                if let before = previous, gap(boxes[before], boxes[index]) > size * 0.8 { text.append(contentsOf: " \u{1F} ".unicodeScalars) }
                previous = index
            }
            text.append(scalar)
        }
        return String(text)
    }

    /// The horizontal distance between two boxes, whichever side the second is on (right to
    /// left text runs leftwards); 0 when they overlap.
    static func gap(_ first: PDFCharacterBox, _ second: PDFCharacterBox) -> Double {
        max(0, second.x1 - first.x2, first.x1 - second.x2)
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
