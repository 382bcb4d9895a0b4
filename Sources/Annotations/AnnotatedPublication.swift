import FoundationEssentials

/// One publication and its annotations: the unit exported and imported.
public struct AnnotatedPublication: Sendable, Hashable {
    /// The publication's identifier (an ISBN, a UUID URN…), when it has one.
    public var identifier: String?
    public var title: String
    public var authors: [String]
    public var annotations: [Annotation]
    /// KOReader's partial MD5 of the document (`partial_md5_checksum`), when imported from
    /// KOReader: the digest its progress sync also identifies the book by.
    public var koreaderDocumentDigest: String?
    /// Entries of an imported file that were not made into annotations, one reason each
    /// (a KOReader page bookmark without a note, a Readium item without a target…): counted
    /// and told, never silently dropped.
    public var skipped: [String]

    public init(identifier: String?, title: String, authors: [String] = [], annotations: [Annotation],
                koreaderDocumentDigest: String? = nil, skipped: [String] = []) {
        self.identifier = identifier
        self.title = title
        self.authors = authors
        self.annotations = annotations
        self.koreaderDocumentDigest = koreaderDocumentDigest
        self.skipped = skipped
    }

    /// How many annotations (tombstones aside) an export left the quote out of.
    public var quotesWithheld: Int {
        annotations.reduce(0) { $0 + ($1.target.quoteWithheld && !$1.deleted ? 1 : 0) }
    }
}

/// The formats annotations are exported in.
public enum AnnotationExportFormat: String, Sendable, CaseIterable {
    /// For people: grouped by chapter, quotes as block quotes, notes below.
    case markdown
    /// The same for Emacs Org mode.
    case org
    /// Lectern's own JSON: every field, tombstones included, read back without loss.
    case json
    /// The Readium Annotation Set (`application/rd-annotations+json`, `.annotation`).
    case readium

    /// The usual file name extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .markdown: "md"
        case .org: "org"
        case .json: "json"
        case .readium: "annotation"
        }
    }

    /// The media type of the exported file.
    public var mediaType: String {
        switch self {
        case .markdown: "text/markdown; charset=utf-8"
        case .org: "text/org; charset=utf-8"
        case .json: "application/json"
        case .readium: ReadiumAnnotationSet.mediaType
        }
    }
}

/// Writes annotations in one of the ``AnnotationExportFormat``s.
public enum AnnotationExporter {
    /// The publications' annotations in `format`, UTF-8. Tombstones are written only in
    /// Lectern's JSON (the other formats are for people or for other readers, which have no
    /// use for them). `generated` is the time written as the export's date.
    public static func export(_ publications: [AnnotatedPublication], as format: AnnotationExportFormat,
                              generated: Date) -> Data {
        switch format {
        case .markdown: Data(MarkdownAnnotationWriter.markdown(publications, generated: generated).utf8)
        case .org: Data(OrgAnnotationWriter.org(publications, generated: generated).utf8)
        case .json: Data(LecternAnnotationJSON.write(publications, generated: generated))
        case .readium: Data(ReadiumAnnotationSet.write(publications, generated: generated))
        }
    }
}
