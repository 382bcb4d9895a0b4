import FoundationEssentials

/// A highlight, with or without a note, in one publication: what the person keeps of a book.
///
/// It is anchored several ways at once (``AnnotationTarget``), so that it survives a new
/// layout, a new edition, or another application's idea of a position. Deleting one keeps a
/// tombstone (``deleted``) so that a sync can tell "deleted here" from "never seen here".
public struct Annotation: Sendable, Hashable, Identifiable {
    /// Stable across devices and exports: a UUID string, lower case.
    public var id: String
    /// Where it is.
    public var target: AnnotationTarget
    /// How the highlight is drawn.
    public var color: HighlightColor
    public var style: HighlightStyle
    /// The person's note, Markdown; nil for a highlight without a note. Theirs: never a quote
    /// of the book, so always exported, even for a protected book.
    public var note: String?
    public var tags: [String]
    public var created: Date
    public var modified: Date
    /// A deletion tombstone: the annotation is gone, kept only so that syncs delete it elsewhere.
    public var deleted: Bool

    public init(id: String = UUID().uuidString.lowercased(), target: AnnotationTarget,
                color: HighlightColor = .yellow, style: HighlightStyle = .solid, note: String? = nil,
                tags: [String] = [], created: Date = Date(), modified: Date? = nil, deleted: Bool = false) {
        self.id = id
        self.target = target
        self.color = color
        self.style = style
        self.note = note
        self.tags = tags
        self.created = created
        self.modified = modified ?? created
        self.deleted = deleted
    }
}

/// Where an annotation is, several ways at once; any one may be missing (an import from another
/// reader brings what it has). Resolution tries the most precise first and falls back on the
/// quote (``TextQuote``), so a new edition or a changed layout still finds the passage.
public struct AnnotationTarget: Sendable, Hashable {
    /// The resource (chapter) href, relative to the publication root as in its manifest.
    public var href: String
    /// The media type of the resource, when known.
    public var type: String?
    /// Progression of the start in the resource, 0…1.
    public var progression: Double?
    /// Progression of the start in the whole publication, 0…1.
    public var totalProgression: Double?
    /// The range in the resource's text, as offsets of characters (grapheme clusters) in
    /// `TextDocument.plainText` — the reader's positions, independent of width and margins.
    public var textRange: Range<Int>?
    /// The quoted text with some context; nil for a page-level note, or when a protected book's
    /// quote could not be kept (an import without the allowance to keep it).
    public var quote: TextQuote?
    /// A CSS selector of the element where the range starts, when one can be made.
    public var cssSelector: String?
    /// The range in the text content of the element ``cssSelector`` selects, in Unicode code
    /// points (the W3C `TextPositionSelector` refining a `CssSelector`), when known.
    public var cssTextRange: Range<Int>?
    /// An EPUB CFI of the range, when one can be made (`epubcfi(...)` without the package part
    /// or with it, as read).
    public var cfi: String?
    /// The page, for fixed-layout documents: PDF pages, comic pages (1-based).
    public var page: Int?
    /// The titles of the chapter and its parents, outermost first (for lists and exports).
    public var headings: [String]
    /// The library holds a quote for it, sealed (a protected book's), that could not be opened
    /// now (no passphrase): ``quote`` is nil, yet the quote is not lost, and saving the
    /// annotation back with this set keeps the sealed quote as it is.
    public var quoteIsSealed: Bool
    /// An export left the quote out (a protected book whose copy allowance did not cover it):
    /// ``quote`` is nil there, and the exported file says so.
    public var quoteWithheld: Bool
    /// KOReader's (crengine) XPointers of the start and end, as imported
    /// (`/body/DocFragment[3]/body/p[2]/text().15`): `DocFragment[N]` is the N-th spine item.
    /// Kept so that they can be resolved in the book; the quote is the fallback.
    public var xpointerStart: String?
    public var xpointerEnd: String?

    public init(href: String, type: String? = nil, progression: Double? = nil, totalProgression: Double? = nil,
                textRange: Range<Int>? = nil, quote: TextQuote? = nil, cssSelector: String? = nil, cfi: String? = nil,
                page: Int? = nil, headings: [String] = [], quoteIsSealed: Bool = false,
                cssTextRange: Range<Int>? = nil, quoteWithheld: Bool = false,
                xpointerStart: String? = nil, xpointerEnd: String? = nil) {
        self.href = href
        self.type = type
        self.progression = progression
        self.totalProgression = totalProgression
        self.textRange = textRange
        self.quote = quote
        self.cssSelector = cssSelector
        self.cfi = cfi
        self.page = page
        self.headings = headings
        self.quoteIsSealed = quoteIsSealed
        self.cssTextRange = cssTextRange
        self.quoteWithheld = quoteWithheld
        self.xpointerStart = xpointerStart
        self.xpointerEnd = xpointerEnd
    }
}

/// The quoted passage with a little context on each side (the W3C `TextQuoteSelector`).
public struct TextQuote: Sendable, Hashable {
    public var exact: String
    public var prefix: String
    public var suffix: String

    public init(exact: String, prefix: String = "", suffix: String = "") {
        self.exact = exact
        self.prefix = prefix
        self.suffix = suffix
    }
}

/// The six highlight colours of the Readium palette; raw values are the Readium Annotation
/// Set's names.
public enum HighlightColor: String, Sendable, Hashable, CaseIterable {
    case yellow, green, blue, pink, orange, purple
}

/// How a highlight is drawn; raw values are the Readium Annotation Set's `highlight` names.
public enum HighlightStyle: String, Sendable, Hashable, CaseIterable {
    /// A background of the colour (reverse video without colours).
    case solid
    case underline
    case strikethrough
}
