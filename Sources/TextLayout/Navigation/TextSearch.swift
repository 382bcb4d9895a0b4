import Shared

extension TextDocument {
    /// The offset at progression `progression` (0…1), clamped to the document.
    public func offset(forProgression progression: Double) -> Int {
        guard length > 0, progression.isFinite else { return 0 }
        return min(max(0, Int((progression * Double(length)).rounded())), length - 1)
    }

    /// Every occurrence of `query` in the document text, case-insensitively, in document
    /// order. Matches stay inside one paragraph or table cell; generated text (list markers,
    /// ruby annotations, image placeholders) is searched as it is shown.
    public func ranges(of query: String, caseSensitive: Bool = false) -> [Range<Int>] {
        let needle = Array(query)
        guard !needle.isEmpty else { return [] }
        let folded = caseSensitive ? needle.map { String($0) } : needle.map(Self.fold)
        var result: [Range<Int>] = []
        for (offset, text) in texts where text.count >= needle.count {
            let characters = text.characters
            var start = 0
            while start + needle.count <= characters.count {
                var matched = true
                for index in 0..<needle.count {
                    let candidate = characters[start + index]
                    if candidate == needle[index] { continue }
                    if caseSensitive || !candidate.isCased || Self.fold(candidate) != folded[index] {
                        matched = false
                        break
                    }
                }
                if matched {
                    result.append((offset + start)..<(offset + start + needle.count))
                    start += needle.count
                } else {
                    start += 1
                }
            }
        }
        return result
    }

    /// The offset a locator designates: where its text is found (the occurrence nearest its
    /// progression), else its progression, else its fragment, else the start.
    public func offset(for locator: Locator) -> Int {
        var estimate = 0
        if let progression = locator.locations.progression {
            estimate = offset(forProgression: progression)
        } else if let fragment = locator.locations.fragments.first, let anchor = anchors[fragment] {
            estimate = anchor.offset
        }
        guard let highlight = locator.text.highlight, !highlight.isEmpty else { return estimate }
        let candidates = ranges(of: highlight, caseSensitive: true)
        guard !candidates.isEmpty else { return estimate }
        let before = locator.text.before ?? ""
        func score(_ range: Range<Int>) -> (Int, Int) {
            let context = before.isEmpty ? true : text(in: max(0, range.lowerBound - before.count)..<range.lowerBound).hasSuffix(before)
            return (context ? 0 : 1, abs(range.lowerBound - estimate))
        }
        return candidates.min { score($0) < score($1) }!.lowerBound
    }

    /// A locator for `offset`: progression, and up to 40 characters before and from it.
    public func locator(at offset: Int, mediaType: MediaType? = .xhtml, title: String? = nil) -> Locator {
        let clamped = min(max(0, offset), max(0, length - 1))
        var fragments: [String] = []
        // Several ids may start at one offset (a section and its heading): the innermost one
        // (fewest blocks), then the first by name, so the same place always gives the same
        // fragment whatever the dictionary's order in this process.
        if let nearest = anchors.filter({ $0.value.offset <= clamped }).min(by: { Self.isNearer($0, than: $1) }) {
            fragments = [nearest.key]
        }
        let highlight = text(in: clamped..<min(length, clamped + 40)).prefix { $0 != "\n" }
        let before = text(in: max(0, clamped - 40)..<clamped).split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
        return Locator(href: href, mediaType: mediaType, title: title,
                       locations: Locator.Locations(fragments: fragments, progression: length > 0 ? Double(clamped) / Double(length) : 0),
                       text: Locator.Text(before: before.isEmpty ? nil : String(before),
                                          highlight: highlight.isEmpty ? nil : String(highlight)))
    }

    /// Whether anchor `a` is a better name for a place after both than `b`: it starts later,
    /// or at the same offset it spans fewer blocks, or it comes first by name.
    static func isNearer(_ a: (key: String, value: Anchor), than b: (key: String, value: Anchor)) -> Bool {
        if a.value.offset != b.value.offset { return a.value.offset > b.value.offset }
        if a.value.blocks.count != b.value.blocks.count { return a.value.blocks.count < b.value.blocks.count }
        return a.key < b.key
    }

    static func fold(_ character: Character) -> String {
        if let ascii = character.asciiValue { return String(Character(Unicode.Scalar(ascii >= 65 && ascii <= 90 ? ascii + 32 : ascii))) }
        return character.lowercased()
    }
}
