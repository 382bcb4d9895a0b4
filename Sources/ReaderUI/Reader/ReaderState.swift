import Shared
import TextLayout

/// The reader's position and paging, without a terminal: the current chapter (an item of
/// the reading order) laid out at the window's width, the first line shown, and how each
/// movement changes them. Moving past either end of the chapter asks the controller to load
/// the neighbour (``Effect/load(chapter:anchor:)``); it calls ``show(chapter:layout:anchor:)``
/// when the layout is ready.
public struct ReaderState: Sendable {
    /// Where to place a chapter once it is laid out.
    public enum Anchor: Sendable, Hashable {
        case start
        /// The last page.
        case end
        case progression(Double)
        case locator(Locator)
        /// A document offset (a search match, a note's target).
        case offset(Int)
        case fragment(String)
    }

    /// How much of the chapter the layout holds.
    public enum LaidOutPart: Sendable, Hashable {
        case whole
        /// Its first part, while the rest is converted; with the whole chapter's text length
        /// when an earlier count knows it. Offsets are the whole's; progressions are not.
        case firstPart(wholeLength: Int?)
    }

    /// What the controller must do after a movement.
    public enum Effect: Sendable, Hashable {
        case none
        /// Load and lay out this chapter, then show it at `anchor`.
        case load(chapter: Int, anchor: Anchor)
        /// Nothing further that way: say so in the status line.
        case message(String)
        /// The place lies past the first part laid out (or where it lies is unknown until the
        /// chapter is whole): move to `anchor` once the whole chapter is laid out.
        case awaitWhole(Anchor)
        /// A movement forward past the end of the first part laid out, which is not the
        /// chapter's end (a page down, a line down, `count` times), or back above a stretch
        /// deep in the chapter: carried out once the whole chapter is laid out, from the page
        /// shown, which stays meanwhile.
        case awaitRest(ReaderAction, count: Int)
    }

    public let chapterCount: Int
    /// Whether the book reads right to left (`h`/`l` and ←/→ swap).
    public let rightToLeft: Bool
    public private(set) var chapter: Int
    public private(set) var layout: LaidOutDocument?
    /// The first line shown.
    public private(set) var top = 0
    /// Whether the layout is the whole chapter or its first part.
    public private(set) var laidOutPart = LaidOutPart.whole
    /// The offset where the part laid out begins: 0, except for a stretch deep in the chapter
    /// converted from a checkpoint (a reopening there): above it, the page waits for the whole.
    public private(set) var partStart = 0
    /// The text rows of the window.
    public var rows: Int {
        didSet { rows = max(1, rows) }
    }
    /// Digits typed before a command (`5j`, `50%`).
    public private(set) var pendingCount = ""
    /// The length of each chapter's text, once the background pass has counted them: book
    /// percentages (nil until then).
    public var chapterLengths: [Int]?
    /// The lengths of the chapters counted so far, by index, while not all of them are (a book
    /// closed before its count finished keeps these for the next opening).
    public var lengthsCountedSoFar: [Int: Int] = [:]
    /// Where the conversion of each long chapter can start over (recorded when it was
    /// converted whole, this opening or an earlier one): a reopening deep inside converts a
    /// stretch around the place from them, not all the text before it.
    public var chapterCheckpoints: [Int: [ChapterCheckpoint]] = [:]

    public init(chapterCount: Int, rightToLeft: Bool = false, chapter: Int = 0, rows: Int = 24) {
        self.chapterCount = max(1, chapterCount)
        self.rightToLeft = rightToLeft
        self.chapter = chapter
        self.rows = max(1, rows)
    }

    // MARK: - Layouts

    /// Shows `layout` as chapter `chapter` (or as its first `part`), placed at `anchor`, whose
    /// progressions are through the whole chapter.
    public mutating func show(chapter: Int, layout: LaidOutDocument, anchor: Anchor, part: LaidOutPart = .whole) {
        self.chapter = chapter
        self.layout = layout
        laidOutPart = part
        partStart = part == .whole ? 0 : (layout.document.blocks.first?.offset ?? 0)
        top = line(for: anchor, in: layout)
    }

    /// Moves within the chapter shown to `anchor`.
    public mutating func move(to anchor: Anchor) {
        guard let layout else { return }
        top = line(for: anchor, in: layout)
    }

    /// Replaces the layout of the current chapter (new width after a resize, new options),
    /// keeping the first line's text in view.
    public mutating func relayout(_ newLayout: LaidOutDocument) {
        // The layout's own locator: its progression is through the text laid out, part or whole.
        let locator = layout.map { $0.locator(forLine: top) }
        layout = newLayout
        top = locator.map { newLayout.lineIndex(for: $0) } ?? 0
        top = min(top, max(0, newLayout.lineCount - 1))
    }

    /// Replaces the first part of the chapter shown with the whole chapter, which begins with
    /// the same text at the same offsets: the page stays the same line, not a place found again
    /// by progression (which the whole's greater length would move).
    public mutating func extend(to whole: LaidOutDocument) {
        guard let part = layout, part.lines.indices.contains(top), whole.lines.indices.contains(top) else {
            relayout(whole)
            laidOutPart = .whole
            partStart = 0
            return
        }
        let shown = part.lines[top], same = whole.lines[top]
        layout = whole
        laidOutPart = .whole
        partStart = 0
        if shown.offsets == same.offsets, shown.text == same.text { return }
        // The part's last block laid out differently (a table cut short): find its text.
        top = shown.offsets.isEmpty ? min(top, whole.lineCount - 1) : (whole.lineIndex(containing: shown.offsets.lowerBound) ?? 0)
    }

    func line(for anchor: Anchor, in layout: LaidOutDocument) -> Int {
        let count = layout.lineCount
        guard count > 0 else { return 0 }
        switch anchor {
        case .start: return 0
        case .end: return ((count - 1) / rows) * rows
        case .progression(let progression):
            return min(layout.lineIndex(forProgression: min(1, progressionLaidOut(progression, in: layout) ?? 0)), count - 1)
        case .locator(var locator):
            // Without a progression the saved text around the place finds it, nearest the start.
            locator.locations.progression = locator.locations.progression.flatMap { progressionLaidOut($0, in: layout) }
            // A stretch deep in the chapter does not begin on a page of the whole: its line stays.
            if partStart > 0 { return min(layout.lineIndex(for: locator), count - 1) }
            return alignedToPage(min(layout.lineIndex(for: locator), count - 1), in: layout)
        case .offset(let offset): return pageTop(containing: layout.lineIndex(containing: offset) ?? 0)
        case .fragment(let fragment): return layout.lineIndex(forFragment: fragment) ?? 0
        }
    }

    /// The text length of chapter `chapter`, once counted (this opening or an earlier one).
    public func knownLength(ofChapter chapter: Int) -> Int? {
        chapterLengths.flatMap { $0.indices.contains(chapter) ? $0[chapter] : nil } ?? lengthsCountedSoFar[chapter]
    }

    /// Where in chapter `chapter` the place `anchor` names lies, when that is known before the
    /// chapter is converted: its start (a saved position at progression 0 too), an offset, or a
    /// progression through a chapter whose length is counted (a saved position). Nil otherwise
    /// (its end, an id).
    public func estimatedOffset(of anchor: Anchor, inChapter chapter: Int) -> Int? {
        let progression: Double
        switch anchor {
        case .start: return 0
        case .offset(let offset): return max(0, offset)
        case .progression(let value): progression = value
        case .locator(let locator):
            guard let value = locator.locations.progression else { return nil }
            progression = value
        case .end, .fragment: return nil
        }
        // A book closed at its start before its chapters were counted (the count comes after
        // the chapter shown is whole) has no length stored: none is needed for the start.
        guard progression > 0 else { return 0 }
        return knownLength(ofChapter: chapter).map { Int(Double($0) * min(progression, 1)) }
    }

    /// A progression through the whole chapter as one through `layout`: the same for the whole
    /// chapter; scaled to a first part by the whole's length, nil when that is unknown.
    private func progressionLaidOut(_ progression: Double, in layout: LaidOutDocument) -> Double? {
        // The start of the whole is the start of any part.
        if progression <= 0 { return 0 }
        switch laidOutPart {
        case .whole: return progression
        case .firstPart(let whole?) where layout.document.length > 0:
            return progression * Double(whole) / Double(layout.document.length)
        case .firstPart: return nil
        }
    }

    /// `line`, or the first line of its page when only lines without text (blank lines, rules)
    /// lie between them: a locator names a text offset, which a page starting with a blank
    /// line shares with the text line below it, so a saved page comes back as the same page.
    func alignedToPage(_ line: Int, in layout: LaidOutDocument) -> Int {
        var candidate = line
        while candidate > 0, candidate % rows != 0, layout.lines[candidate - 1].offsets.isEmpty {
            candidate -= 1
        }
        return candidate % rows == 0 ? candidate : line
    }

    /// The first line of the page holding `line` (pages are `rows` lines from the chapter start).
    func pageTop(containing line: Int) -> Int { (line / rows) * rows }

    // MARK: - Keys

    /// Takes a digit of a count; returns false for other characters.
    public mutating func takeCountDigit(_ character: Character) -> Bool {
        guard let digit = character.wholeNumberValue, character.isASCII, digit >= 0 else { return false }
        if digit == 0 && pendingCount.isEmpty { return false }
        if pendingCount.count < 6 { pendingCount.append(character) }
        return true
    }

    /// The count typed (nil when none), cleared.
    public mutating func takeCount() -> Int? {
        defer { pendingCount = "" }
        return Int(pendingCount)
    }

    public mutating func clearCount() { pendingCount = "" }

    /// Moves as `action` says, `count` times; actions that are not movements do nothing.
    public mutating func perform(_ action: ReaderAction, count: Int? = nil) -> Effect {
        guard let layout else { return .none }
        let times = max(1, count ?? 1)
        let lines = layout.lineCount
        switch action {
        case .lineDown: return scroll(by: times, lines: lines)
        case .lineUp: return scroll(by: -times, lines: lines)
        case .halfPageDown: return scroll(by: max(1, rows / 2) * times, lines: lines)
        case .halfPageUp: return scroll(by: -max(1, rows / 2) * times, lines: lines)
        case .pageDown: return page(by: times, lines: lines)
        case .pageUp: return page(by: -times, lines: lines)
        case .pageRight: return page(by: rightToLeft ? -times : times, lines: lines)
        case .pageLeft: return page(by: rightToLeft ? times : -times, lines: lines)
        case .nextChapter:
            guard chapter + 1 < chapterCount else { return .message("This is the last chapter.") }
            return .load(chapter: min(chapterCount - 1, chapter + times), anchor: .start)
        case .previousChapter:
            if partStart > 0, count == nil { return .awaitWhole(.start) }
            if top > 0, count == nil { top = 0; return .none }
            guard chapter > 0 else { top = 0; return .message("This is the first chapter.") }
            return .load(chapter: max(0, chapter - times), anchor: .start)
        case .start:
            if let count { return go(toChapter: count - 1) }
            if chapter == 0, partStart > 0 { return .awaitWhole(.start) }
            if chapter == 0 { top = 0; return .none }
            return .load(chapter: 0, anchor: .start)
        case .end:
            if let count { return go(toChapter: count - 1) }
            if chapter == chapterCount - 1 {
                if case .firstPart = laidOutPart { return .awaitWhole(.end) }
                top = line(for: .end, in: layout)
                return .none
            }
            return .load(chapter: chapterCount - 1, anchor: .end)
        case .goToPercent:
            guard let count else { return .none }
            return go(toPercent: Double(min(count, 100)))
        default:
            return .none
        }
    }

    func go(toChapter index: Int) -> Effect {
        let target = min(max(0, index), chapterCount - 1)
        return .load(chapter: target, anchor: .start)
    }

    /// Goes to `percent` of the book: by text length when the chapters are counted, else by
    /// chapter count.
    public mutating func go(toPercent percent: Double) -> Effect {
        let fraction = min(max(percent / 100, 0), 1)
        var target = chapter, progression = 0.0
        if let lengths = chapterLengths, lengths.count == chapterCount, lengths.reduce(0, +) > 0 {
            let total = Double(lengths.reduce(0, +))
            var wanted = fraction * total, index = 0
            while index < lengths.count - 1, wanted >= Double(lengths[index]) {
                wanted -= Double(lengths[index])
                index += 1
            }
            target = index
            progression = lengths[index] > 0 ? min(1, wanted / Double(lengths[index])) : 0
        } else {
            let position = fraction * Double(chapterCount)
            target = min(chapterCount - 1, Int(position))
            progression = min(1, position - Double(target))
        }
        if target == chapter, let layout {
            if case .firstPart = laidOutPart, partStart > 0 || (progressionLaidOut(progression, in: layout) ?? 1) >= 1 {
                return .awaitWhole(.progression(progression))
            }
            top = pageTop(containing: line(for: .progression(progression), in: layout))
            return .none
        }
        return .load(chapter: target, anchor: .progression(progression))
    }

    mutating func scroll(by delta: Int, lines: Int) -> Effect {
        if delta > 0 {
            let maximum = max(0, lines - rows)
            if top >= maximum {
                if case .firstPart = laidOutPart { return .awaitRest(.lineDown, count: delta) }
                guard chapter + 1 < chapterCount else { return .message("End of the book.") }
                return .load(chapter: chapter + 1, anchor: .start)
            }
            top = min(maximum, top + delta)
        } else {
            if top == 0 {
                // Above a stretch deep in the chapter: the line up comes with the whole.
                if partStart > 0 { return .awaitRest(.lineUp, count: -delta) }
                guard chapter > 0 else { return .message("Start of the book.") }
                return .load(chapter: chapter - 1, anchor: .end)
            }
            top = max(0, top + delta)
        }
        return .none
    }

    mutating func page(by pages: Int, lines: Int) -> Effect {
        if pages > 0 {
            let target = top + pages * rows
            if target >= lines {
                // The end of a first part is not the chapter's: its next page comes with the rest.
                if case .firstPart = laidOutPart { return .awaitRest(.pageDown, count: pages) }
                // Past the last page: the next chapter, whatever the count.
                guard chapter + 1 < chapterCount else {
                    top = line(for: .end, in: layout!)
                    return .message("End of the book.")
                }
                return .load(chapter: chapter + 1, anchor: .start)
            }
            top = target
        } else {
            if top == 0 {
                if partStart > 0 { return .awaitRest(.pageUp, count: -pages) }
                guard chapter > 0 else { return .message("Start of the book.") }
                return .load(chapter: chapter - 1, anchor: .end)
            }
            top = max(0, top + pages * rows)
        }
        return .none
    }

    /// Brings document offset `offset` of the current chapter into view (a search match):
    /// the page holding it.
    public mutating func reveal(offset: Int) {
        guard let layout, let line = layout.lineIndex(containing: offset) else { return }
        if line < top || line >= top + rows { top = pageTop(containing: line) }
    }
}
