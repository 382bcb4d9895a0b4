import TerminalCells

/// One laid-out line: spans of text at cell columns, in visual (left-to-right screen) order,
/// ready to be drawn by a terminal that does not reorder bidirectional text.
public struct LayoutLine: Sendable {
    public enum Kind: Sendable, Hashable {
        /// Running text: paragraphs, list items, captions.
        case text
        case heading(level: Int)
        /// The `═`/`─` line under an `<h1>`/`<h2>` (see ``LayoutOptions/headingUnderlines``).
        case headingUnderline(level: Int)
        case preformatted
        /// A horizontal rule.
        case rule
        /// A line of a table's rows.
        case table
        /// The line under a table's header rows.
        case tableBorder
        /// Vertical space between blocks.
        case blank
    }

    public let kind: Kind
    /// The spans, left to right, with their columns (0 is the left edge of the text column).
    public let spans: [LineSpan]
    /// The block the line belongs to (nil for blank lines).
    public let blockIndex: Int?
    /// The document offsets the line covers, in logical order (from its first character to
    /// the one after its last, including the spaces it ends with). Empty for blank and
    /// decoration lines, placed at the next text.
    public let offsets: Range<Int>
    /// The direction of the paragraph (right-to-left lines are right-aligned).
    public let direction: TextDirection
    /// Whether this is the last line of its block.
    public let endsBlock: Bool
    /// On a blank line left for a picture: which row of which picture.
    public var picture: PictureRow?

    /// One row of the rows a picture takes.
    public struct PictureRow: Sendable, Hashable {
        /// The image resource.
        public let href: String
        /// This row, from 0, of `rows`.
        public let row: Int
        public let rows: Int
        /// The picture's width in cells, and its first column in the text column.
        public let columns: Int
        public let column: Int
    }

    /// The cells the line occupies, from column 0 to the end of its last span.
    public var width: Int { spans.last.map { $0.column + $0.width } ?? 0 }

    /// The line as plain text: spans at their columns, blanks between them, no trailing blanks.
    public var text: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width + 8)
        appendText(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``text`` as UTF-8 to `bytes` (for writing many lines out).
    public func appendText(to bytes: inout [UInt8]) {
        var column = 0
        for span in spans {
            while column < span.column {
                bytes.append(0x20)
                column += 1
            }
            span.characters.appendUTF8(to: &bytes)
            column = span.column + span.width
        }
    }
}

/// A run of clusters of one style, contiguous on screen and in the document.
public struct LineSpan: Sendable {
    /// The first column of the span.
    public let column: Int
    /// The clusters, in visual order, as they are to be drawn (mirrored brackets in
    /// right-to-left runs, no-break spaces as spaces).
    public let characters: Clusters
    /// The width of each cluster, kept as exceptions to the widths of their leads: a
    /// reader keeps every line of a chapter, and a byte per character here would be a
    /// second copy of what the text's leads already say.
    private let cellWidths: ClusterWidths
    public let style: TextStyle
    /// The document offsets of the clusters: empty for decoration (table borders, the hyphen
    /// of a soft-hyphen break, rules). When ``isReversed`` (a right-to-left run), the first
    /// cluster on screen is the last in the document.
    public let offsets: Range<Int>
    public let isReversed: Bool

    /// The text to draw.
    public var text: String {
        var result = ""
        // U+FEFF: the lam of a lam-alef ligature, drawn by the alef (see `BidiMode`).
        for character in characters where character != "\u{FEFF}" { result.append(character) }
        return result
    }
    /// The cells the span occupies.
    public let width: Int

    init(column: Int, characters: Clusters, cellWidths: [UInt8], style: TextStyle, offsets: Range<Int>, isReversed: Bool) {
        var characters = characters
        characters.pack()
        self.init(column: column, characters: characters, cellWidths: ClusterWidths(cellWidths, leads: characters.leads),
                  width: cellWidths.reduce(0) { $0 + Int($1) }, style: style, offsets: offsets, isReversed: isReversed)
    }

    private init(column: Int, characters: Clusters, cellWidths: ClusterWidths, width: Int, style: TextStyle,
                 offsets: Range<Int>, isReversed: Bool) {
        self.column = column
        self.characters = characters
        self.cellWidths = cellWidths
        self.width = width
        self.style = style
        self.offsets = offsets
        self.isReversed = isReversed
    }

    /// The width of the cluster at visual position `index`.
    private func cellWidth(at index: Int) -> Int {
        Int(cellWidths.width(at: index, lead: characters.leads[index]))
    }

    /// A decoration span (border, rule, hyphen).
    init(decoration text: String, column: Int, at offset: Int) {
        self.init(column: column, characters: Clusters(text), cellWidths: text.map { UInt8(CellWidth.of($0)) },
                  style: .decoration, offsets: offset..<offset, isReversed: false)
    }

    /// The same span moved by `delta` columns.
    func shifted(by delta: Int) -> LineSpan {
        LineSpan(column: column + delta, characters: characters, cellWidths: cellWidths, width: width, style: style,
                 offsets: offsets, isReversed: isReversed)
    }

    /// The columns of the clusters at `range` of document offsets (clipped to the span).
    func columns(of range: Range<Int>) -> Range<Int>? {
        let start = max(range.lowerBound, offsets.lowerBound), end = min(range.upperBound, offsets.upperBound)
        guard start < end else { return nil }
        // Visual positions of the first and last cluster.
        let first = isReversed ? offsets.upperBound - end : start - offsets.lowerBound
        let last = isReversed ? offsets.upperBound - 1 - start : end - 1 - offsets.lowerBound
        var column = self.column
        for index in 0..<first { column += cellWidth(at: index) }
        var endColumn = column
        for index in first...last { endColumn += cellWidth(at: index) }
        return column..<endColumn
    }

    /// The document offset shown at `column`, if the span covers it.
    func offset(atColumn target: Int) -> Int? {
        guard !offsets.isEmpty, target >= column, target < column + width else { return nil }
        var position = column
        for index in characters.indices {
            position += cellWidth(at: index)
            if target < position { return isReversed ? offsets.upperBound - 1 - index : offsets.lowerBound + index }
        }
        return nil
    }
}
