import Shared
import Streamer

/// The phrases of a book's media overlays laid end to end on one clock: the time in the book
/// of each phrase, and the phrase at any time.
///
/// A clip's end is its `clipEnd`, else the end of its audio file; a `clipEnd` past the end of
/// the file is cut there. Both need the file's duration, which the player learns as it decodes
/// each file: the timeline is rebuilt (a linear pass) with every duration learnt, and until a
/// duration is known a clip without `clipEnd` counts as empty. Phrases inside skippable
/// structures (page numbers, notes, sidebars…) are left out unless asked for; phrases with
/// text only are kept, empty and flagged, for a speech fallback.
public struct MediaOverlayTimeline: Sendable {
    /// One phrase on the book's clock.
    public struct Entry: Sendable, Hashable {
        public let phrase: MediaOverlayPhrase
        /// The reading-order index of the content document the overlay belongs to.
        public let readingOrderIndex: Int
        /// Where it starts and ends on the book's clock, in seconds.
        public let start: Double
        public let end: Double
        /// Where it starts and ends in its audio file (equal for a text-only phrase).
        public let fileBegin: Double
        public let fileEnd: Double
        /// Whether its end is that of the file (no `clipEnd`, or one past the end), so that the
        /// file's end, not a time, ends it.
        public let endsWithFile: Bool

        public var duration: Double { end - start }
        public var audioHref: String? { phrase.clip?.href }
    }

    public let entries: [Entry]
    /// The end of the last phrase: the book's duration as far as it is known.
    public var duration: Double { entries.last?.end ?? 0 }

    /// - Parameters:
    ///   - durations: the duration of an audio file (by href) when known.
    ///   - skipping: the `epub:type`s whose phrases are left out.
    public init(book: MediaOverlayBook, durations: [String: Double] = [:],
                skipping: Set<String> = MediaOverlayStructures.skippable) {
        var entries: [Entry] = []
        var clock = 0.0
        for chapter in book.chapters {
            let inferred = Self.inferredEnd(of: chapter, durations: durations)
            for (number, phrase) in chapter.overlay.phrases.enumerated() where !MediaOverlayStructures.phrase(phrase, isIn: skipping) {
                var begin = 0.0, end = 0.0, endsWithFile = false
                if let clip = phrase.clip {
                    let fileDuration = durations[clip.href] ?? (inferred?.phrase == number ? inferred?.fileEnd : nil)
                    begin = fileDuration.map { min(clip.begin, $0) } ?? clip.begin
                    switch (clip.end, fileDuration) {
                    case (let clipEnd?, let known?): end = min(clipEnd, known); endsWithFile = clipEnd >= known
                    case (let clipEnd?, nil): end = clipEnd
                    case (nil, let known?): end = known; endsWithFile = true
                    case (nil, nil): end = begin; endsWithFile = true
                    }
                    end = max(end, begin)
                }
                entries.append(Entry(phrase: phrase, readingOrderIndex: chapter.readingOrderIndex, start: clock,
                                     end: clock + (end - begin), fileBegin: begin, fileEnd: end, endsWithFile: endsWithFile))
                clock += end - begin
            }
        }
        self.entries = entries
    }

    /// The one clip of `chapter` whose end is unknown (no `clipEnd`, its file not decoded yet),
    /// when the overlay's declared duration tells it: the declaration less the other clips.
    /// Lets a time on the book's clock be found before the files are decoded.
    static func inferredEnd(of chapter: MediaOverlayBook.Chapter, durations: [String: Double]) -> (phrase: Int, fileEnd: Double)? {
        guard let declared = chapter.declaredDuration else { return nil }
        var known = 0.0
        var unknown: (phrase: Int, begin: Double)?
        for (number, phrase) in chapter.overlay.phrases.enumerated() {
            guard let clip = phrase.clip else { continue }
            if let end = clip.end ?? durations[clip.href] {
                known += max(0, end - clip.begin)
            } else {
                guard unknown == nil else { return nil }
                unknown = (number, clip.begin)
            }
        }
        guard let unknown, declared > known else { return nil }
        return (unknown.phrase, unknown.begin + (declared - known))
    }

    /// The index of the phrase being read at `time` seconds into the book: the last one with
    /// audio starting at or before it (the first for a negative time, the last past the end).
    /// A binary search: O(log n).
    public func index(at time: Double) -> Int? {
        guard !entries.isEmpty else { return nil }
        var low = 0, high = entries.count - 1
        // The last entry whose start is ≤ time.
        while low < high {
            let middle = (low + high + 1) / 2
            if entries[middle].start <= time { low = middle } else { high = middle - 1 }
        }
        // Empty entries (text only, or not yet timed) share their start with the next one that
        // plays: step back to one that plays, or forward when none before does.
        var index = low
        while index > 0, entries[index].duration <= 0 || entries[index].start > time { index -= 1 }
        if entries[index].duration <= 0, let next = entries[index...].firstIndex(where: { $0.duration > 0 }) { index = next }
        return index
    }

    /// Where phrase `index` starts on the book's clock.
    public func time(ofPhrase index: Int) -> Double? {
        entries.indices.contains(index) ? entries[index].start : nil
    }

    /// The first phrase whose text is `href` (`#fragment` optional), for starting at a place.
    public func index(ofText href: String) -> Int? {
        let bare = Href.removingFragment(href)
        let fragment = Href.fragment(of: href)
        return entries.firstIndex { $0.phrase.textHref == bare && (fragment == nil || $0.phrase.fragment == fragment) }
    }

    /// Whether `next` follows `previous` in the same file without a gap, so the file plays on.
    public static func continues(_ previous: Entry, with next: Entry) -> Bool {
        guard let href = previous.audioHref, href == next.audioHref else { return false }
        return abs(next.fileBegin - previous.fileEnd) < 0.002
    }
}
