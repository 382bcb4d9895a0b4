/// One block of a content document: a paragraph, heading, list item, preformatted text,
/// horizontal rule or table, with its indentation and place in the document text.
public struct TextBlock: Sendable {
    public enum Kind: Sendable, Hashable {
        /// A `<p>`: takes the first-line indent when it follows another paragraph.
        case paragraph
        /// Other running text (a `<div>` of text, a poem line, `<dt>`, a caption): no indent.
        case plain
        /// `<h1>`…`<h6>`.
        case heading(level: Int)
        /// A list item; its text starts with its marker (`1. `, `• `).
        case listItem
        /// `<pre>`: lines kept as they are, never reflowed; a line wider than the text is
        /// wrapped hard at the last cluster that fits.
        case preformatted
        /// `<hr>`.
        case rule
        /// `<table>`: see ``TextBlock/table``.
        case table
    }

    public internal(set) var kind: Kind
    /// The text (empty for rules and tables).
    public internal(set) var text: InlineText
    /// The cells, for tables.
    public internal(set) var table: TableContent?
    /// Cells of indent on the start side (left for left-to-right text): lists, quotes, `<dd>`.
    public internal(set) var startIndent: Int
    /// Cells of indent on the end side: block quotes.
    public internal(set) var endIndent: Int
    /// Extra indent of the lines after the first (the width of a list marker).
    public internal(set) var hangingIndent: Int
    /// Whether a structural boundary (section, heading, list, quote…) precedes the block: the
    /// layout puts a blank line there.
    public internal(set) var spaceBefore: Bool
    /// The language of the block (`xml:lang`/`lang`), when known.
    public internal(set) var language: String?
    /// The first offset of the block in the document text.
    public internal(set) var offset: Int
    /// The offsets the block occupies: its text (or cells) each followed by one separator.
    public internal(set) var length: Int

    /// The resolved base direction: right-to-left blocks are right-aligned.
    public var direction: TextDirection {
        if kind == .table { return table?.direction ?? .leftToRight }
        return text.direction
    }

    /// The offsets of the block.
    public var offsets: Range<Int> { offset..<(offset + length) }
}

/// The rows of a table block. Cells spanning several rows (`rowspan`) are laid out in their
/// first row only.
public struct TableContent: Sendable {
    public internal(set) var rows: [[TableCell]]
    /// How many leading rows are header rows (`<thead>`, or a first row of `<th>`).
    public internal(set) var headerRows: Int
    public internal(set) var direction: TextDirection

    /// The number of columns (the widest row, counting spans).
    public var columnCount: Int { rows.map { $0.reduce(0) { $0 + $1.columnSpan } }.max() ?? 0 }
}

/// One cell of a table: its content flattened into one text (blocks separated by line breaks).
public struct TableCell: Sendable {
    public internal(set) var text: InlineText
    public internal(set) var isHeader: Bool
    public internal(set) var columnSpan: Int
    /// The first offset of the cell's text in the document text.
    public internal(set) var offset: Int
}
