/// A publication offered by a catalog (an OPDS 1 acquisition entry, or an OPDS 2 publication).
public struct OPDSPublication: Sendable, Hashable {
    public var metadata: OPDSPublicationMetadata
    public var links: [OPDSLink]
    /// Covers and thumbnails.
    public var images: [OPDSLink]

    public init(metadata: OPDSPublicationMetadata, links: [OPDSLink] = [], images: [OPDSLink] = []) {
        self.metadata = metadata
        self.links = links
        self.images = images
    }

    /// The links that acquire the publication (open access, borrow, buy, sample…).
    public var acquisitionLinks: [OPDSLink] { links.filter(\.isAcquisition) }
}

/// What a catalog says of a publication.
public struct OPDSPublicationMetadata: Sendable, Hashable {
    public var identifier: String?
    public var title: String
    public var authors: [String]
    public var publishers: [String]
    public var summary: String?
    public var languages: [String]
    public var subjects: [String]
    public var published: String?
    public var modified: String?

    public init(identifier: String? = nil, title: String, authors: [String] = [], publishers: [String] = [],
                summary: String? = nil, languages: [String] = [], subjects: [String] = [],
                published: String? = nil, modified: String? = nil) {
        self.identifier = identifier
        self.title = title
        self.authors = authors
        self.publishers = publishers
        self.summary = summary
        self.languages = languages
        self.subjects = subjects
        self.published = published
        self.modified = modified
    }
}
