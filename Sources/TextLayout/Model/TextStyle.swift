/// How a run of text is set: emphasis the terminal maps to the attributes it has (bold,
/// italic, underline…), what the run is (a link, a note reference, a generated marker…), and
/// the link it leads to.
public struct TextStyle: Sendable, Hashable {
    /// Typographic emphasis. A terminal without italic may show it as underline, or not at all.
    public struct Emphasis: OptionSet, Sendable, Hashable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        public static let bold = Emphasis(rawValue: 1 << 0)
        public static let italic = Emphasis(rawValue: 1 << 1)
        public static let underline = Emphasis(rawValue: 1 << 2)
        public static let strikethrough = Emphasis(rawValue: 1 << 3)
        /// Code, keyboard input, sample output: monospace in print, often dimmed in a terminal.
        public static let code = Emphasis(rawValue: 1 << 4)
        public static let superscript = Emphasis(rawValue: 1 << 5)
        public static let `subscript` = Emphasis(rawValue: 1 << 6)
        /// Marked (highlighted) text, `<mark>`.
        public static let marked = Emphasis(rawValue: 1 << 7)
    }

    /// What the run is, when it is not plain text.
    public enum Role: UInt8, Sendable, Hashable {
        case text
        /// A link (see ``TextStyle/linkIndex``).
        case link
        /// A note reference (`epub:type="noteref"`): activating it shows the note in a popup.
        case noteReference
        /// The `[image: …]` placeholder of an image, SVG or video.
        case image
        /// A `[math: …]` placeholder.
        case math
        /// The number or bullet of a list item.
        case listMarker
        /// A ruby annotation, shown in parentheses after its base text.
        case rubyAnnotation
        /// Generated decoration: table borders, rules, heading underlines, the hyphen of a
        /// soft-hyphen break. Decoration maps to no character of the document.
        case decoration
    }

    public var emphasis: Emphasis
    public var role: Role
    /// The index of the run's link in ``TextDocument/links``, when it is in a link.
    public var linkIndex: Int? {
        get { storedLink < 0 ? nil : Int(storedLink) }
        set { storedLink = newValue.map { Int32(clamping: $0) } ?? -1 }
    }
    /// ``linkIndex``, -1 for none: a style is kept for every cluster of a document, and an
    /// `Int?` would make it three times larger (24 bytes instead of 8).
    private var storedLink: Int32

    public init(emphasis: Emphasis = [], role: Role = .text, linkIndex: Int? = nil) {
        self.emphasis = emphasis
        self.role = role
        storedLink = linkIndex.map { Int32(clamping: $0) } ?? -1
    }

    public static let plain = TextStyle()
    static let decoration = TextStyle(role: .decoration)
}

/// Where a link leads, resolved against the document that contains it.
public struct LinkTarget: Sendable, Hashable {
    /// The target: a package href (relative to the package root, percent-encoded, with its
    /// fragment) or an absolute URL.
    public var href: String
    /// Whether the target is outside the publication (an absolute URL: `https:`, `mailto:`…).
    public var isExternal: Bool
    /// Whether the link is a note reference (`epub:type="noteref"` or `role="doc-noteref"`),
    /// whose target a reader shows in a popup (see ``NoteResolver``).
    public var isNoteReference: Bool

    public init(href: String, isExternal: Bool, isNoteReference: Bool) {
        self.href = href
        self.isExternal = isExternal
        self.isNoteReference = isNoteReference
    }
}

/// The base direction of a paragraph.
public enum TextDirection: Sendable, Hashable {
    case leftToRight, rightToLeft
}
