import Shared
import TextLayout

/// Where the reader is: the lines shown, the page in the chapter, the progressions and the
/// locator saved for the place.
extension ReaderState {
    /// The lines shown.
    public var visibleLines: Range<Int> {
        guard let layout else { return 0..<0 }
        return min(top, layout.lineCount)..<min(layout.lineCount, top + rows)
    }

    /// The page shown and the pages of the chapter at this size. In a stretch deep in the
    /// chapter, the lines before it are estimated at its own lines per character.
    public var pageInChapter: (page: Int, count: Int) {
        guard let layout, layout.lineCount > 0 else { return (1, 1) }
        let partLength = layout.document.length - partStart
        let linesBefore = partStart > 0 && partLength > 0
            ? Int((Double(layout.lineCount) * Double(partStart) / Double(partLength)).rounded()) : 0
        let count = max(1, (linesBefore + layout.lineCount + rows - 1) / rows)
        let page = min(count, (linesBefore + top + rows - 1) / rows + 1)
        return (page, count)
    }

    /// The pages of the chapter as the status line gives them: counted when it is whole;
    /// while its first part is shown, estimated from the whole's length (`~450`), or `…`
    /// when that is unknown.
    public var chapterPagesLabel: String {
        let (_, count) = pageInChapter
        switch laidOutPart {
        case .whole: return "\(count)"
        case .firstPart(let whole?) where (layout?.document.length ?? 0) > 0:
            let scale = Double(whole) / Double(layout?.document.length ?? 1)
            return "~\(max(count, Int((Double(count) * scale).rounded())))"
        case .firstPart: return "…"
        }
    }

    /// The offset of the first character shown.
    public var topOffset: Int {
        guard let layout, layout.lines.indices.contains(top) else { return 0 }
        return layout.lines[top].offsets.lowerBound
    }

    /// How far into the chapter the page is, 0…1.
    public var chapterProgression: Double {
        guard let layout else { return 0 }
        switch laidOutPart {
        case .whole: return layout.progression(ofLine: top)
        case .firstPart(let whole?) where whole > 0: return min(1, Double(topOffset) / Double(whole))
        // Somewhere in a chapter of unknown length, near its start.
        case .firstPart: return 0
        }
    }

    /// How far into the book, 0…1, once the chapters are counted (nil before).
    public var bookProgression: Double? {
        guard let lengths = chapterLengths, lengths.count == chapterCount else { return nil }
        let total = lengths.reduce(0, +)
        guard total > 0 else { return nil }
        let before = lengths[..<chapter].reduce(0, +)
        let within = layout == nil ? 0 : Double(lengths[chapter]) * chapterProgression
        return min(1, (Double(before) + within) / Double(total))
    }

    /// The progress estimated from chapters only (for the bookshelf before the count).
    public var estimatedBookProgression: Double {
        (Double(chapter) + chapterProgression) / Double(chapterCount)
    }

    /// The locator of the first line shown.
    public var currentLocator: Locator? {
        guard let layout else { return nil }
        var locator = layout.locator(forLine: top)
        if case .firstPart(let whole) = laidOutPart {
            // Through the whole chapter, as a saved position is read back; without the
            // whole's length the text around the place is what finds it again.
            locator.locations.progression = whole.map { _ in chapterProgression }
        }
        locator.locations.totalProgression = bookProgression
        return locator
    }

    /// Whether the page shows the last line of the book.
    public var isAtEnd: Bool {
        guard let layout else { return false }
        return chapter == chapterCount - 1 && top + rows >= layout.lineCount
    }
}
