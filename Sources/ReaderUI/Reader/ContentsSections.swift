/// The table of contents as places of the book: which reading-order item (or PDF page) each
/// entry points into, so that the reader labels, counts and moves by contents entries rather
/// than by files (#29 item 7). One file often holds several entries (a poem's parts, a book in
/// one XHTML file); a place is in the deepest entry whose anchor precedes it.
///
/// Where an entry's anchor lies inside its item is known only once that item is converted:
/// callers give it as a *position* in units of their choosing (a line of the layout shown, an
/// offset of a search match), nil when unknown.
struct ContentsSections: Sendable {
    /// An entry placed in the book.
    struct Stop: Sendable, Hashable {
        /// Its index in ``TableOfContentsIndex/entries``.
        let entry: Int
        let chapter: Int
        /// Where it lies in its chapter (0 for an entry without a fragment), nil when unknown.
        let position: Int?
    }

    let index: TableOfContentsIndex
    /// The chapter of each entry; nil when it points outside the reading order.
    let chapters: [Int?]
    /// The entries of each chapter, in table-of-contents order.
    let entriesByChapter: [Int: [Int]]

    /// - Parameter chapterOf: the chapter an href points into (nil: not in the reading order).
    init(_ index: TableOfContentsIndex, chapterOf: (String) -> Int?) {
        self.index = index
        chapters = index.entries.map { chapterOf($0.href) }
        var byChapter: [Int: [Int]] = [:]
        for (entry, chapter) in chapters.enumerated() {
            if let chapter { byChapter[chapter, default: []].append(entry) }
        }
        entriesByChapter = byChapter
    }

    static let empty = ContentsSections(.empty) { _ in nil }

    /// Whether no entry points into the reading order: files are all there is to move by.
    var isEmpty: Bool { entriesByChapter.isEmpty }

    /// The entry at `place` of chapter `chapter`: of the entries pointing into it, the last one
    /// (the deepest at one place) whose position is at or before `place`; the chapter's first
    /// entry when none is (a title page before the first heading); nil when no entry points
    /// into the chapter. `positionOf` gives an entry's position in the chapter; an entry
    /// without a fragment is at its start.
    func entry(inChapter chapter: Int, at place: Int, positionOf: (TableOfContentsIndex.Entry) -> Int?) -> Int? {
        guard let candidates = entriesByChapter[chapter], let first = candidates.first else { return nil }
        var best: (entry: Int, position: Int)?
        for candidate in candidates {
            let entry = index.entries[candidate]
            guard let position = entry.fragment == nil ? 0 : positionOf(entry), position <= place else { continue }
            if best == nil || position >= best!.position { best = (candidate, position) }
        }
        return best?.entry ?? first
    }

    /// Every entry in reading order: by chapter, then by position where known (`positionOf`,
    /// asked for the entries of `knownChapter` only), else in table-of-contents order after
    /// the known ones. Entries at one place appear once (the first listed).
    func stops(knownChapter: Int, positionOf: (TableOfContentsIndex.Entry) -> Int?) -> [Stop] {
        var stops: [Stop] = []
        for chapter in entriesByChapter.keys.sorted() {
            var placed: [(stop: Stop, order: Int)] = []
            for (order, entry) in entriesByChapter[chapter]!.enumerated() {
                let item = index.entries[entry]
                let position = item.fragment == nil ? 0 : (chapter == knownChapter ? positionOf(item) : nil)
                placed.append((Stop(entry: entry, chapter: chapter, position: position), order))
            }
            placed.sort { ($0.stop.position ?? .max, $0.order) < ($1.stop.position ?? .max, $1.order) }
            var seen = Set<String>()
            var positions = Set<Int>()
            for (stop, _) in placed {
                if let position = stop.position {
                    guard positions.insert(position).inserted else { continue }
                } else {
                    guard seen.insert(index.entries[stop.entry].href).inserted else { continue }
                }
                stops.append(stop)
            }
        }
        return stops
    }

    /// Where `]` (`forward`) or `[` goes from `place` of chapter `chapter`, `count` entries on:
    /// the next entry after the place; back, the start of the entry the place is in, or the one
    /// before when the place is its start (or a count is given). Nil when no entry lies that
    /// way (the caller falls back to files). A place before the first entry of its chapter is
    /// named by that entry (``entry(inChapter:at:positionOf:)``): when the entry is on the page
    /// shown (`page` positions from the place), `]` goes past it.
    func step(forward: Bool, count: Int?, chapter: Int, place: Int, page: Int = 1,
              positionOf: (TableOfContentsIndex.Entry) -> Int?) -> Stop? {
        let stops = stops(knownChapter: chapter, positionOf: positionOf)
        func isAfter(_ stop: Stop) -> Bool {
            stop.chapter > chapter || (stop.chapter == chapter && (stop.position ?? .max) > place)
        }
        let times = max(1, count ?? 1)
        if forward {
            guard var next = stops.firstIndex(where: isAfter) else { return nil }
            let beforeFirst = !stops.contains { $0.chapter == chapter && !isAfter($0) }
            if beforeFirst, stops[next].chapter == chapter, let position = stops[next].position, position < place + page {
                next += 1
                guard next < stops.count else { return nil }
            }
            return stops[min(stops.count - 1, next + times - 1)]
        }
        // The entry the place is in: the last one not after it.
        guard let current = stops.lastIndex(where: { !isAfter($0) }) else { return nil }
        let inside = stops[current].chapter < chapter || (stops[current].position ?? 0) < place
        let target = current - times + (inside ? 1 : 0)
        guard target >= 0 else { return inside ? stops[current] : nil }
        return stops[target]
    }
}
