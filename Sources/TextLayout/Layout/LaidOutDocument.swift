import Shared

/// A ``TextDocument`` laid out at one width: its lines, and the mapping between lines,
/// document offsets, progressions and locators that a reader needs to keep its place.
public struct LaidOutDocument: Sendable {
    public let document: TextDocument
    public let options: LayoutOptions
    /// The lines, laid out when they are asked for (see ``LaidOutLines``).
    public let lines: LaidOutLines
    /// The lines of each block's text, by block index: the page index of the document.
    public let blockLines: [Range<Int>]

    /// The number of lines.
    public var lineCount: Int { lines.count }

    // MARK: - Offsets and lines

    /// The index of the line showing document `offset` (clamped to the document).
    public func lineIndex(containing offset: Int) -> Int? {
        guard !lines.isEmpty, let block = document.blockIndex(containing: max(0, offset)) else { return nil }
        let range = blockLines[block]
        guard !range.isEmpty else { return min(range.lowerBound, lines.count - 1) }
        var best = range.lowerBound
        for index in range {
            let line = lines[index]
            if line.spans.contains(where: { $0.offsets.contains(offset) }) { return index }
            if !line.offsets.isEmpty, line.offsets.lowerBound <= offset { best = index }
        }
        for index in range where lines[index].offsets.contains(offset) { return index }
        return best
    }

    /// The screen position (line, column) of document `offset`, when a line shows it.
    public func position(of offset: Int) -> (line: Int, column: Int)? {
        guard let index = lineIndex(containing: offset) else { return nil }
        let line = lines[index]
        for span in line.spans {
            if let columns = span.columns(of: offset..<(offset + 1)) { return (index, columns.lowerBound) }
        }
        return (index, line.direction == .rightToLeft ? (line.spans.first?.column ?? 0) : line.width)
    }

    /// The document offset shown at `column` of line `index` (the nearest character of the
    /// line when the column is blank): for pointing at text (selections).
    public func offset(atLine index: Int, column: Int) -> Int {
        let line = lines[index]
        for span in line.spans {
            if let offset = span.offset(atColumn: column) { return offset }
        }
        let textSpans = line.spans.filter { !$0.offsets.isEmpty }
        guard let first = textSpans.first, let last = textSpans.last else { return line.offsets.lowerBound }
        if column < first.column { return first.isReversed ? first.offsets.upperBound - 1 : first.offsets.lowerBound }
        if column >= last.column + last.width { return last.isReversed ? last.offsets.lowerBound : last.offsets.upperBound - 1 }
        // In a gap between spans: the span ending before the column.
        let before = textSpans.last { $0.column + $0.width <= column } ?? first
        return before.isReversed ? before.offsets.lowerBound : before.offsets.upperBound - 1
    }

    /// The cells to highlight for document `offsets` (a search match, a selection): one
    /// column range per piece, several per line where right-to-left runs interleave.
    public func highlights(for offsets: Range<Int>) -> [(line: Int, columns: Range<Int>)] {
        guard !offsets.isEmpty, let first = lineIndex(containing: offsets.lowerBound),
              let last = lineIndex(containing: offsets.upperBound - 1) else { return [] }
        // Tables interleave cells: widen to the whole block.
        var from = min(first, last), to = max(first, last)
        for block in [lines[first].blockIndex, lines[last].blockIndex].compactMap({ $0 }) where document.blocks[block].kind == .table {
            from = min(from, blockLines[block].lowerBound)
            to = max(to, blockLines[block].upperBound - 1)
        }
        var result: [(Int, Range<Int>)] = []
        for index in from...to {
            var pieces = lines[index].spans.compactMap { $0.columns(of: offsets) }.sorted { $0.lowerBound < $1.lowerBound }
            var merged: [Range<Int>] = []
            while !pieces.isEmpty {
                let piece = pieces.removeFirst()
                if let previous = merged.last, previous.upperBound >= piece.lowerBound - 1,
                   lines[index].kind != .table || previous.upperBound == piece.lowerBound {
                    merged[merged.count - 1] = previous.lowerBound..<max(previous.upperBound, piece.upperBound)
                } else {
                    merged.append(piece)
                }
            }
            result += merged.map { (index, $0) }
        }
        return result
    }

    // MARK: - Progression

    /// The progression (0…1) in the document of the start of line `index`.
    public func progression(ofLine index: Int) -> Double {
        let length = document.length
        guard length > 0, lines.indices.contains(index) else { return 0 }
        return Double(lines[index].offsets.lowerBound) / Double(length)
    }

    /// The line at progression `progression` (0…1) of the document.
    public func lineIndex(forProgression progression: Double) -> Int {
        lineIndex(containing: document.offset(forProgression: progression)) ?? 0
    }

    // MARK: - Locators

    /// A locator for the start of line `index`: href, progression, and the text around it so
    /// the place is found again after the layout or the book changes.
    public func locator(forLine index: Int, mediaType: MediaType? = .xhtml, title: String? = nil) -> Locator {
        let offset = lines.indices.contains(index) ? lines[index].offsets.lowerBound : 0
        return document.locator(at: offset, mediaType: mediaType, title: title)
    }

    /// The line of `locator` (its text when it has some, else its progression, else its fragment).
    public func lineIndex(for locator: Locator) -> Int {
        lineIndex(containing: document.offset(for: locator)) ?? 0
    }

    /// The first line of the element with id `fragment`.
    public func lineIndex(forFragment fragment: String) -> Int? {
        document.offset(ofFragment: fragment).flatMap { lineIndex(containing: $0) }
    }

    // MARK: - Text

    /// The text of lines `range` for copying: the characters shown, in logical (reading)
    /// order, without the layout's additions (indents, justification, hyphens of broken
    /// words); paragraphs end with a line feed.
    public func copyText(lines range: Range<Int>) -> String {
        let covered = range.clamped(to: lines.indices).map { lines[$0].offsets }.filter { !$0.isEmpty }
        guard let low = covered.map(\.lowerBound).min(), let high = covered.map(\.upperBound).max() else { return "" }
        var text = document.text(in: low..<high)
        while text.last == "\n" || text.last == " " { text.removeLast() }
        return text
    }

    /// The lines `range` as they appear on screen, one per line: what `lectern render` prints.
    public func displayText(lines range: Range<Int>) -> String {
        range.clamped(to: lines.indices).map { lines[$0].text }.joined(separator: "\n")
    }
}
