import LibPoppler
import Shared

/// Tells apart the blocks of a page from where its lines sit and how large they are set, so
/// that reflowed PDF text does not run a heading or a page number into a paragraph
/// ("1 Foo Hello, here is…"):
///
/// - The running text's size is the size most characters of the page have. Lines clearly
///   larger are headings; lines side by side (a section number and its title) are one line.
/// - The first and the last line are margins (running head or foot, page number) when they
///   are a page number ("7", "- 7 -", "Page 7 of 9", "vii"), or stand apart: smaller than the
///   running text, or more than two lines' distance from the rest.
/// - A line of a contents page or an index (a title, then a page number far to the right or
///   after leader dots) is a paragraph of its own.
/// - A paragraph ends at a blank line of the text, a larger gap than between its lines, a
///   change of size, a line much shorter than the page's lines (the last of a paragraph), or
///   before a first line indented from its neighbours.
/// - A figure's text (a plot's scale and axis labels) is never a heading: see
///   ``figureText(_:margins:fullWidth:)``.
enum PageStructure {
    /// The blocks of a page poppler laid out; the whole text as one paragraph when the boxes
    /// do not line up with it.
    static func blocks(of layout: PDFPageLayout) -> [PageTextBlock] {
        if let boxes = layout.boxes, let lines = PageLine.lines(layout.text, boxes: boxes) { return blocks(lines) }
        return layout.text.isEmpty ? [] : [PageTextBlock(kind: .paragraph, text: layout.text)]
    }

    /// The text of `blocks` with a blank line between two: what search and `lectern text` read.
    static func text(of blocks: [PageTextBlock]) -> String {
        blocks.map(\.text).joined(separator: "\n\n")
    }

    static func blocks(_ lines: [PageLine]) -> [PageTextBlock] {
        let lines = mergingSideBySide(lines)
        let visible = lines.filter { !$0.text.isEmpty }
        guard !visible.isEmpty else { return [] }
        let body = bodySize(visible)
        let pitch = typicalPitch(visible, body: body)
        // The width of a full line: most lines of running text are full, the last of each
        // paragraph is not.
        let fullWidth = percentile(visible.filter { isBody($0, body) }.map(\.width), 0.75) ?? visible.map(\.width).max()!

        var margins = Set<Int>()
        if let first = lines.firstIndex(where: { !$0.text.isEmpty }), let last = lines.lastIndex(where: { !$0.text.isEmpty }), first < last {
            let next = lines[(first + 1)...].first { !$0.text.isEmpty }
            if isMargin(lines[first], neighbour: next.map { $0.top - lines[first].top }, body: body, pitch: pitch) { margins.insert(first) }
            let previous = lines[..<last].last { !$0.text.isEmpty }
            if isMargin(lines[last], neighbour: previous.map { lines[last].top - $0.top }, body: body, pitch: pitch) { margins.insert(last) }
        }

        // A plot's tick labels and axis titles: never headings, whatever their size.
        let figure = figureText(lines, margins: margins, fullWidth: fullWidth)

        var blocks: [PageTextBlock] = []
        var current: [PageLine] = []
        var currentKind = PageTextBlock.Kind.paragraph
        func flush() {
            guard !current.isEmpty else { return }
            let separator = currentKind == .paragraph ? "\n" : " "
            blocks.append(PageTextBlock(kind: currentKind, text: current.map(\.text).joined(separator: separator)))
            current = []
        }
        for (index, line) in lines.enumerated() {
            if line.text.isEmpty { flush(); continue }
            // An entry of a contents page or an index is a paragraph of its own line.
            if line.isEntry, !margins.contains(index), line.size < body * 1.15 {
                flush()
                currentKind = .paragraph
                current = [line]
                flush()
                continue
            }
            if current.last?.isEntry == true { flush() }
            let kind: PageTextBlock.Kind = margins.contains(index) ? .margin
                : line.size >= body * 1.15 && !figure.contains(index) ? .heading : .paragraph
            if let previous = current.last {
                let sameSize = abs(line.size - previous.size) <= max(0.5, body * 0.08)
                let gap = line.top - previous.top
                var breaks = kind != currentKind || kind == .margin || !sameSize || gap > max(pitch, previous.size) * 1.4 || gap < 0
                if kind == .paragraph, !breaks {
                    breaks = previous.width < fullWidth * 0.7
                        || isIndentedFirstLine(index, in: lines, previous: previous, size: body)
                }
                if breaks { flush() }
            }
            currentKind = kind
            current.append(line)
        }
        flush()
        return blocks
    }

    /// Lines poppler split at a wide space but set on one baseline (a section number, then
    /// its title) joined into one.
    static func mergingSideBySide(_ lines: [PageLine]) -> [PageLine] {
        var result: [PageLine] = []
        for line in lines {
            if var previous = result.last, !previous.text.isEmpty, !line.text.isEmpty,
               abs(line.top - previous.top) < min(line.size, previous.size) * 0.3, line.left >= previous.right,
               abs(line.size - previous.size) < max(line.size, previous.size) * 0.1 {
                // A title, then its page number far to the right: a contents entry (a title has
                // letters: numbers side by side are a plot's scale, "0 5 10").
                let entry = !previous.isEntry && previous.text.contains(where: \.isLetter)
                    && line.left - previous.right > min(line.size, previous.size) * 0.8
                    && PageLine.isPageReference(line.text)
                previous.text += (entry ? " … " : " ") + line.text
                previous.isEntry = previous.isEntry || entry
                previous.right = line.right
                previous.bottom = max(previous.bottom, line.bottom)
                result[result.count - 1] = previous
            } else {
                result.append(line)
            }
        }
        return result
    }

    /// The size most characters are set in, to half a point.
    static func bodySize(_ lines: [PageLine]) -> Double {
        var characters: [Double: Int] = [:]
        for line in lines { characters[(line.size * 2).rounded() / 2, default: 0] += line.text.count }
        return characters.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }!.key
    }

    static func isBody(_ line: PageLine, _ body: Double) -> Bool { abs(line.size - body) <= max(0.5, body * 0.08) }

    /// The usual distance from one running-text line to the next.
    static func typicalPitch(_ lines: [PageLine], body: Double) -> Double {
        var pitches: [Double] = []
        for (previous, line) in zip(lines, lines.dropFirst()) where isBody(previous, body) && isBody(line, body) {
            let pitch = line.top - previous.top
            if pitch > body * 0.5 { pitches.append(pitch) }
        }
        return percentile(pitches, 0.5) ?? body * 1.2
    }

    /// The value below which `fraction` of `values` lie (the lower one of two).
    static func percentile(_ values: [Double], _ fraction: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        return values.sorted()[Int(Double(values.count - 1) * fraction)]
    }

    static func isMargin(_ line: PageLine, neighbour distance: Double?, body: Double, pitch: Double) -> Bool {
        if isPageNumber(line.text) { return true }
        guard line.text.count <= 100, let distance else { return false }
        let apart = abs(distance) > pitch * 2.2
        let smaller = line.size < body * 0.95
        return (apart && line.size < body * 1.15) || (smaller && abs(distance) > pitch * 1.3)
    }

    /// "7", "- 7 -", "(vii)", "Page 7", "p. 7", "7 / 9", "7 of 9".
    static func isPageNumber(_ text: String) -> Bool {
        var words = text.lowercased().split { $0 == " " || $0 == "-" || $0 == "–" || $0 == "—" || $0 == "(" || $0 == ")" || $0 == "[" || $0 == "]" }
        if let first = words.first, first == "page" || first == "p." || first == "p" { words.removeFirst() }
        if words.count == 3, words[1] == "of" || words[1] == "/", words[2].allSatisfy(\.isASCIIDigit) { words.removeLast(2) }
        if words.count == 1, let slash = words[0].firstIndex(of: "/") {
            let number = words[0][..<slash], total = words[0][words[0].index(after: slash)...]
            guard !total.isEmpty, total.allSatisfy(\.isASCIIDigit) else { return false }
            words = [number]
        }
        guard words.count == 1, let word = words.first, !word.isEmpty, word.count <= 8 else { return false }
        return (word.allSatisfy(\.isASCIIDigit) && word.count <= 5) || isRomanNumeral(String(word))
    }

    /// "vii", "xiv", "xlii": a roman number up to 399 written the usual way.
    static func isRomanNumeral(_ word: String) -> Bool {
        let values: [Character: Int] = ["i": 1, "v": 5, "x": 10, "l": 50, "c": 100]
        var total = 0
        let digits = word.compactMap { values[$0] }
        guard digits.count == word.count, !digits.isEmpty else { return false }
        for (index, value) in digits.enumerated() {
            total += index + 1 < digits.count && digits[index + 1] > value ? -value : value
        }
        guard total > 0, total < 400 else { return false }
        var canonical = "", rest = total
        for (value, letters) in [(100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")] {
            while rest >= value { canonical += letters; rest -= value }
        }
        return canonical == word
    }

    /// A line indented from the line before it, whose next line comes back to that line's
    /// left edge (or that ends the text): the first line of a new paragraph.
    static func isIndentedFirstLine(_ index: Int, in lines: [PageLine], previous: PageLine, size: Double) -> Bool {
        let line = lines[index]
        guard line.left - previous.left > size * 0.8, line.left - previous.left < size * 8 else { return false }
        guard index + 1 < lines.count, !lines[index + 1].text.isEmpty else { return true }
        return abs(lines[index + 1].left - previous.left) < size * 0.5
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
