/// How text is laid out: the width of the text column and the typographic choices.
public struct LayoutOptions: Sendable, Hashable {
    /// The narrowest column the engine lays out (one wide character must fit).
    public static let minimumWidth = 2

    /// The width of the text column in terminal cells; no line is wider. Values below
    /// ``minimumWidth`` are raised to it.
    public var width: Int {
        didSet { width = max(width, Self.minimumWidth) }
    }
    /// Full justification: the lines of a paragraph, except its last and those ending at a
    /// `<br>`, are widened to exactly ``width`` (minus indents) by spreading extra spaces over
    /// the gaps between words. Preformatted text, headings and tables are never justified,
    /// and no spaces are invented where the text has none (CJK runs, a single long word).
    public var justify: Bool
    /// The first-line indent, in cells, of a `<p>` that follows another `<p>` (none after a
    /// heading, at the start of a section, after a list, quote, table or rule).
    public var paragraphIndent: Int
    /// Blank lines between two `<p>` paragraphs (other structure always gets one blank line).
    public var paragraphSpacing: Int
    /// Whether `<h1>` and `<h2>` are underlined with a line of `═` or `─` (so headings remain
    /// distinguishable in plain text; the view also gets ``LayoutLine/Kind/heading(level:)``).
    public var headingUnderlines: Bool
    /// The size of a terminal cell in pixels when images are drawn as pictures (rows are left
    /// for each image whose size the document knows); nil: images stay text placeholders.
    public var pictureCell: PictureCellSize?
    /// Who orders right-to-left text: Lectern (reordered, mirrored, Arabic shaped) or a
    /// terminal that does it itself (logical order).
    public var bidi: BidiMode = .lectern
    /// The most rows a picture takes (a page of the window, so that it can be seen whole).
    public var maxPictureRows: Int = 20

    /// A cell's width and height in pixels.
    public struct PictureCellSize: Sendable, Hashable {
        public let width: Int
        public let height: Int
        public init(width: Int, height: Int) {
            self.width = max(1, width)
            self.height = max(1, height)
        }
    }

    public init(width: Int = 80, justify: Bool = false, paragraphIndent: Int = 2, paragraphSpacing: Int = 0,
                headingUnderlines: Bool = true) {
        self.width = max(width, Self.minimumWidth)
        self.justify = justify
        self.paragraphIndent = max(0, paragraphIndent)
        self.paragraphSpacing = max(0, paragraphSpacing)
        self.headingUnderlines = headingUnderlines
    }
}

/// Where the text column sits in a window: the view draws the lines of a layout made at
/// ``width``, shifted right by ``leftMargin``.
public struct TextColumn: Sendable, Hashable {
    public let leftMargin: Int
    public let width: Int
    public let rightMargin: Int

    /// Centres a column of at most `maximumWidth` cells (nil: as wide as possible) in a window
    /// of `windowWidth` cells, keeping at least `minimumMargin` on each side while the text
    /// keeps 20 cells or more (a tiny window gives up its margins first).
    public init(windowWidth: Int, maximumWidth: Int? = nil, minimumMargin: Int = 0) {
        let window = max(windowWidth, LayoutOptions.minimumWidth)
        var margin = max(0, minimumMargin)
        while margin > 0, window - 2 * margin < min(20, window) { margin -= 1 }
        var width = window - 2 * margin
        if let maximumWidth { width = min(width, max(maximumWidth, LayoutOptions.minimumWidth)) }
        let spare = window - width
        leftMargin = spare / 2
        rightMargin = spare - spare / 2
        self.width = width
    }
}
