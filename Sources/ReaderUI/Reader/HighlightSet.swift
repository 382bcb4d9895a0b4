import Annotations
import FoundationEssentials
import TextLayout

/// The highlights and notes of the open book, as the reader draws and lists them: the live
/// annotations (tombstones are never shown), grouped by the chapter they are in.
///
/// Kept by ``BookController`` and filled from the library when the book's first page shows;
/// each change made in the reader is applied here at once and written to the library after.
struct HighlightSet: Sendable {
    /// Every live annotation of the book, oldest first.
    private(set) var annotations: [Annotation] = []
    /// The annotations of each chapter (reading-order index), by their start.
    private(set) var byChapter: [Int: [Annotation]] = [:]
    /// Whether the library was read (an empty set before it is means "not known yet").
    var isLoaded = false
    /// The colour and style of the last highlight made or changed: the next one takes them.
    var color: HighlightColor = .yellow
    var style: HighlightStyle = .solid
    /// The annotations whose quote is no longer in their chapter's text (a new edition): listed
    /// as orphaned, never drawn.
    private(set) var orphans: Set<String> = []
    /// The chapters whose annotations were checked against their text since the set was read
    /// (``ReaderApp/reanchorHighlights(_:)``), with the length of the text checked: a chapter
    /// converted anew to another length (a conversion rule changed) is checked again.
    var anchoredChapters: [Int: Int] = [:]

    /// Replaces the set with `list` (the library's), grouped with `chapterOf`.
    mutating func replaceAll(_ list: [Annotation], chapterOf: (Annotation) -> Int?) {
        annotations = list.filter { !$0.deleted }.sorted { $0.created < $1.created }
        // Read anew (another device may have moved them): every chapter is checked again.
        anchoredChapters = [:]
        regroup(chapterOf)
    }

    /// Adds `annotation`, or replaces the one with its id.
    mutating func upsert(_ annotation: Annotation, chapterOf: (Annotation) -> Int?) {
        if let index = annotations.firstIndex(where: { $0.id == annotation.id }) {
            annotations[index] = annotation
        } else {
            annotations.append(annotation)
        }
        regroup(chapterOf)
    }

    /// Removes the annotation `id`; returns it.
    @discardableResult
    mutating func remove(id: String, chapterOf: (Annotation) -> Int?) -> Annotation? {
        guard let index = annotations.firstIndex(where: { $0.id == id }) else { return nil }
        let removed = annotations.remove(at: index)
        regroup(chapterOf)
        return removed
    }

    func annotation(id: String) -> Annotation? {
        annotations.first { $0.id == id }
    }

    /// The annotations of `chapter` with a range in its text (drawn on its pages).
    func inChapter(_ chapter: Int) -> [Annotation] { byChapter[chapter] ?? [] }

    /// The annotations of `chapter` that cross the offsets `visible`, in reading order.
    func crossing(_ visible: Range<Int>, inChapter chapter: Int) -> [Annotation] {
        inChapter(chapter).filter { annotation in
            guard let range = annotation.target.textRange else { return false }
            return range.lowerBound < visible.upperBound && range.upperBound > visible.lowerBound
        }
    }

    /// Applies what anchoring found in one chapter: `moved` annotations get their new range
    /// (when their range is still the one checked), `orphaned` ones are no longer drawn, and
    /// the others of `checked` are drawn again. Returns the annotations moved, as now held.
    mutating func applyAnchoring(moved: [String: (from: Range<Int>, to: Range<Int>)], orphaned: Set<String>,
                                 checked: Set<String>, chapterOf: (Annotation) -> Int?) -> [Annotation] {
        var changed: [Annotation] = []
        for index in annotations.indices {
            guard let move = moved[annotations[index].id], annotations[index].target.textRange == move.from else { continue }
            annotations[index].target.textRange = move.to
            changed.append(annotations[index])
        }
        orphans.subtract(checked)
        orphans.formUnion(orphaned)
        regroup(chapterOf)
        return changed
    }

    private mutating func regroup(_ chapterOf: (Annotation) -> Int?) {
        var groups: [Int: [Annotation]] = [:]
        for annotation in annotations where annotation.target.textRange != nil && !orphans.contains(annotation.id) {
            guard let chapter = chapterOf(annotation) else { continue }
            groups[chapter, default: []].append(annotation)
        }
        for key in groups.keys {
            groups[key]!.sort { ($0.target.textRange?.lowerBound ?? 0) < ($1.target.textRange?.lowerBound ?? 0) }
        }
        byChapter = groups
    }

    // MARK: - Making one

    /// How many characters of context a quote keeps on each side (as the W3C
    /// `TextQuoteSelector`'s prefix and suffix; enough to find the passage again).
    static let contextLength = 32

    /// A new highlight of `range` of `document` (the chapter at `href`): anchored by the
    /// range, the quote and its context, the progression in the chapter and in the book, and
    /// the headings it is under. Trailing paragraph and cell separators are left out of it.
    static func make(range: Range<Int>, document: TextDocument, wholeLength: Int?, href: String, type: String?,
                     page: Int?, totalProgression: Double?, headings: [String],
                     color: HighlightColor, style: HighlightStyle, now: Date = Date()) -> Annotation? {
        let length = document.length
        var lower = max(0, min(range.lowerBound, length)), upper = max(lower, min(range.upperBound, length))
        var exact = Array(document.text(in: lower..<upper))
        while let last = exact.last, last == "\n" || last == "\t" { exact.removeLast(); upper -= 1 }
        while let first = exact.first, first == "\n" || first == "\t" { exact.removeFirst(); lower += 1 }
        guard !exact.isEmpty else { return nil }
        let prefix = document.text(in: max(0, lower - contextLength)..<lower)
        let suffix = document.text(in: upper..<min(length, upper + contextLength))
        let whole = max(1, wholeLength ?? length)
        let target = AnnotationTarget(href: href, type: type, progression: min(1, Double(lower) / Double(whole)),
                                      totalProgression: totalProgression, textRange: lower..<upper,
                                      quote: TextQuote(exact: String(exact), prefix: prefix, suffix: suffix),
                                      page: page, headings: headings)
        return Annotation(target: target, color: color, style: style, created: now)
    }
}
