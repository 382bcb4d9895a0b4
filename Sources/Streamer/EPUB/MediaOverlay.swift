import Shared

/// The media overlay of one content document (EPUB 3 Media Overlays, a SMIL file): the
/// phrases a narrator reads, in reading order.
public struct MediaOverlay: Sendable, Hashable {
    /// The href of the SMIL document in the publication.
    public let href: String
    /// The phrases (`par` elements), in document order, nested `seq`s flattened.
    public let phrases: [MediaOverlayPhrase]

    public init(href: String, phrases: [MediaOverlayPhrase]) {
        self.href = href
        self.phrases = phrases
    }
}

/// One `par` of a media overlay: a text element and the audio clip that reads it.
public struct MediaOverlayPhrase: Sendable, Hashable {
    /// The content document holding the text (publication href, without fragment).
    public var textHref: String
    /// The id of the text element (`text src="…#id"`); nil when the whole document is meant.
    public var fragment: String?
    /// The audio that reads it; nil for a phrase with text only (read by speech instead).
    public var clip: MediaOverlayClip?
    /// The `epub:type` tokens of the enclosing `seq`s and of the `par` itself, outermost first:
    /// what skippability and escapability are decided on.
    public var types: [String]

    public init(textHref: String, fragment: String?, clip: MediaOverlayClip?, types: [String] = []) {
        self.textHref = textHref
        self.fragment = fragment
        self.clip = clip
        self.types = types
    }

    /// Whether it has no audio, only text (to be spoken by a speech engine, if at all).
    public var isTextOnly: Bool { clip == nil }

    /// The `text src` written back: `chapter.xhtml#p1`.
    public var textLocation: String { fragment.map { textHref + "#" + $0 } ?? textHref }
}

/// An audio clip: `audio src clipBegin clipEnd`.
public struct MediaOverlayClip: Sendable, Hashable {
    /// The audio resource (publication href, without fragment).
    public var href: String
    /// Where the clip starts in the file, in seconds (`clipBegin`, 0 when missing).
    public var begin: Double
    /// Where it ends, in seconds; nil when `clipEnd` is missing: the end of the file.
    public var end: Double?

    public init(href: String, begin: Double = 0, end: Double? = nil) {
        self.href = href
        self.begin = begin
        self.end = end
    }

    /// As a Media Fragments URI, the form `lectern listen --json` prints: `audio.mp3#t=12.3,14.1`.
    public var mediaFragment: String {
        "\(href)#t=\(Self.format(begin))" + (end.map { "," + Self.format($0) } ?? "")
    }

    static func format(_ seconds: Double) -> String {
        let rounded = (seconds * 1000).rounded() / 1000
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = String(rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}

/// The structures of the EPUB 3 Media Overlays' skippability and escapability (§ 9.4):
/// which `epub:type`s a reading system may skip or leave.
public enum MediaOverlayStructures {
    /// Skipped unless the reader asks for them: page numbers, notes, sidebars and the like.
    public static let skippable: Set<String> = [
        "pagebreak", "note", "footnote", "endnote", "rearnote", "sidebar", "annotation", "marginalia", "practice", "help",
    ]
    /// Structures one can leave at once (the phrase after them is where "escape" goes).
    public static let escapable: Set<String> = [
        "table", "table-row", "table-cell", "list", "list-item", "figure", "aside",
    ]

    /// Whether `phrase` is inside (or is) one of `structures`.
    public static func phrase(_ phrase: MediaOverlayPhrase, isIn structures: Set<String>) -> Bool {
        phrase.types.contains { structures.contains($0) }
    }
}

/// Why a media overlay cannot be used.
public enum MediaOverlayError: Error, Sendable, Equatable, UserMessageConvertible {
    /// The SMIL document cannot be read from the publication.
    case unreadable(href: String, reason: String)
    /// It is not a SMIL document, or breaks a rule the timing depends on.
    case invalid(href: String, line: Int?, reason: String)
    /// It is larger than a book's overlay has any reason to be (bytes, phrases or nesting).
    case tooLarge(href: String, reason: String)

    public var userMessage: String {
        switch self {
        case .unreadable(let href, let reason):
            "the media overlay \(TerminalText.singleLine(href)) cannot be read: \(reason)"
        case .invalid(let href, let line, let reason):
            "the media overlay \(TerminalText.singleLine(href))\(line.map { " (line \($0))" } ?? "") is invalid: \(reason)"
        case .tooLarge(let href, let reason):
            "the media overlay \(TerminalText.singleLine(href)) is too large: \(reason)"
        }
    }
}
