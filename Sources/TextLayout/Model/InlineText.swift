/// The text of one paragraph (or table cell) as the layout sees it: grapheme clusters with
/// their cell widths, styles, line-break opportunities and, for bidirectional text, their
/// resolved embedding levels.
///
/// The clusters are the document's text after HTML whitespace collapsing, with generated text
/// included (list markers, ruby annotations in parentheses, `[image: …]` placeholders): what a
/// person reads, in logical order. Cluster `i` is at document offset
/// ``TextBlock/offset`` `+ i`. A `<br>` is a `"\n"` cluster of width 0.
public struct InlineText: Sendable {
    /// The grapheme clusters, in logical order.
    public internal(set) var characters: Clusters
    /// The first scalar of each cluster: what line breaking and layout classify by (integer
    /// comparisons, where comparing `Character`s would normalise).
    var leads: PackedScalars { characters.leads }
    /// The cell width of each cluster, mostly derived from its lead (see ``width(at:)``).
    private var cellWidths: ClusterWidths
    /// The style of each cluster.
    var styles: StyleRuns
    /// What may happen after each cluster (see ``LineBreak``).
    var breaks: PackedBreaks
    /// The bidi embedding level of each cluster; nil when the text is all left-to-right.
    var levels: [Int8]?
    /// For paragraphs with Arabic letters, the presentation form of each cluster's first
    /// scalar (initial, medial, final or isolated form; the alef of a lam-alef pair the
    /// ligature, its lam U+FEFF). Shown only when Lectern orders the text (see
    /// ``BidiMode``); searching, copying and offsets keep the logical characters.
    var shapes: [UInt32]?
    /// The resolved base direction.
    public internal(set) var direction: TextDirection

    init(characters: Clusters = Clusters(), widths: [UInt8] = [], styles: StyleRuns = StyleRuns(),
         breaks: [LineBreak] = [], levels: [Int8]? = nil, direction: TextDirection = .leftToRight) {
        // Kept as long as the chapter: leads in their narrowest storage (a byte each for Latin
        // text), without the spare room of the arrays they were built in.
        var characters = characters
        characters.pack()
        self.characters = characters
        cellWidths = ClusterWidths(widths, leads: characters.leads)
        self.styles = styles
        self.breaks = PackedBreaks(breaks)
        self.levels = levels
        self.direction = direction
    }

    /// The number of clusters.
    public var count: Int { characters.count }
    public var isEmpty: Bool { characters.isEmpty }

    /// The text as one string, in logical order.
    public var string: String { String(characters) }

    /// The first scalar of cluster `index`. Loops over clusters read this rather than
    /// `leads[index]`, which would copy the storage's references on every call.
    @inline(__always)
    func lead(at index: Int) -> UInt32 { characters.leads[index] }

    /// The width of cluster `index` in cells.
    @inline(__always)
    public func width(at index: Int) -> Int { Int(cellWidths.width(at: index, lead: characters.leads[index])) }

    /// The cell width of every cluster, as a collection.
    var widths: ClusterWidthsView { ClusterWidthsView(leads: leads, widths: cellWidths) }

    /// Sets the width of cluster `index` (a lam drawn by the lam-alef ligature after it takes none).
    mutating func setWidth(_ width: Int, at index: Int) {
        cellWidths.set(UInt8(width), at: index, lead: characters.leads[index])
    }

    /// Replaces the clusters by `characters`, as many, keeping every cluster's width (the
    /// new clusters may have other leads: presentation forms of Arabic letters).
    mutating func replaceCharacters(with characters: Clusters) {
        precondition(characters.count == count, "the clusters are replaced one for one")
        let widths = (0..<count).map { UInt8(width(at: $0)) }
        self.characters = characters
        cellWidths = ClusterWidths(widths, leads: characters.leads)
    }

    /// The style of cluster `index`.
    public func style(at index: Int) -> TextStyle { styles[index] }

    /// Maximal runs of one style, in logical order: what a view needs to show the text
    /// without layout (a popup title, a table of contents entry).
    public var runs: [(text: String, style: TextStyle)] {
        var result: [(String, TextStyle)] = []
        var start = 0
        while start < count {
            let end = styles.runEnd(containing: start)
            result.append((String(characters[start..<end]), styles[start]))
            start = end
        }
        return result
    }

    /// Appends `other` after a `"\n"` cluster (table cells made of several blocks).
    mutating func appendParagraph(_ other: InlineText) {
        if !isEmpty || !other.isEmpty {
            characters.append("\n", lead: 0x0A)
            cellWidths.set(0, at: count - 1, lead: 0x0A)
            styles.append(.plain)
            breaks.append(.mandatory)
            if levels != nil { levels!.append(direction == .rightToLeft ? 1 : 0) }
            if shapes != nil { shapes!.append(0x0A) }
        }
        if levels == nil, let otherLevels = other.levels {
            levels = Array(repeating: direction == .rightToLeft ? 1 : 0, count: count) + otherLevels
        } else if levels != nil {
            levels! += other.levels ?? Array(repeating: other.direction == .rightToLeft ? 2 : 0, count: other.count)
        }
        if shapes != nil || other.shapes != nil {
            // Leads that are their own shape: the paragraphs do not join across the line feed.
            var merged = shapes ?? Array(leads)
            merged += other.shapes ?? Array(other.leads)
            shapes = merged
        }
        cellWidths.append(contentsOf: other.cellWidths, otherLeads: other.leads, after: count)
        characters.append(contentsOf: other.characters)
        styles.append(contentsOf: other.styles)
        breaks.append(contentsOf: other.breaks)
    }
}
