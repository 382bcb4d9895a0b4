/// A catalog feed, OPDS 1 or 2, in one model (after the Readium toolkits' OPDS module).
public struct OPDSFeed: Sendable, Hashable {
    public enum Version: String, Sendable { case opds1, opds2 }

    public var version: Version
    /// The URL the feed was read from; every href of the feed is resolved against it.
    public var url: String
    public var metadata: OPDSFeedMetadata
    public var links: [OPDSLink]
    /// Links to other feeds (the entries of an OPDS 1 navigation feed).
    public var navigation: [OPDSLink]
    public var publications: [OPDSPublication]
    public var groups: [OPDSGroup]
    public var facets: [OPDSFacetGroup]

    public init(version: Version, url: String, metadata: OPDSFeedMetadata, links: [OPDSLink] = [],
                navigation: [OPDSLink] = [], publications: [OPDSPublication] = [], groups: [OPDSGroup] = [],
                facets: [OPDSFacetGroup] = []) {
        self.version = version
        self.url = url
        self.metadata = metadata
        self.links = links
        self.navigation = navigation
        self.publications = publications
        self.groups = groups
        self.facets = facets
    }

    /// The first link with this relation.
    public func link(rel: String) -> OPDSLink? { links.first { $0.hasRel(rel) } }

    /// The page of a paginated feed in `direction`, if the feed links to one.
    public func page(_ direction: OPDSPageDirection) -> OPDSLink? { link(rel: direction.rawValue) }

    /// The search link (an OpenSearch description, or an OPDS 2 templated link).
    public var searchLink: OPDSLink? { link(rel: OPDSRel.search) }
}

/// The pagination relations.
public enum OPDSPageDirection: String, Sendable, CaseIterable {
    case next, previous, first, last
}

/// What a feed says of itself.
public struct OPDSFeedMetadata: Sendable, Hashable {
    public var identifier: String?
    public var title: String
    public var subtitle: String?
    public var modified: String?
    public var numberOfItems: Int?
    public var itemsPerPage: Int?
    public var currentPage: Int?

    public init(identifier: String? = nil, title: String, subtitle: String? = nil, modified: String? = nil,
                numberOfItems: Int? = nil, itemsPerPage: Int? = nil, currentPage: Int? = nil) {
        self.identifier = identifier
        self.title = title
        self.subtitle = subtitle
        self.modified = modified
        self.numberOfItems = numberOfItems
        self.itemsPerPage = itemsPerPage
        self.currentPage = currentPage
    }
}

/// A titled part of an OPDS 2 feed (or an OPDS 1 entry grouped by `opds:groupLink`).
public struct OPDSGroup: Sendable, Hashable {
    public var title: String
    public var links: [OPDSLink]
    public var navigation: [OPDSLink]
    public var publications: [OPDSPublication]

    public init(title: String, links: [OPDSLink] = [], navigation: [OPDSLink] = [],
                publications: [OPDSPublication] = []) {
        self.title = title
        self.links = links
        self.navigation = navigation
        self.publications = publications
    }
}

/// A set of facets: alternative views of the same feed (sort orders, languages…).
public struct OPDSFacetGroup: Sendable, Hashable {
    public var title: String
    public var links: [OPDSLink]

    public init(title: String, links: [OPDSLink] = []) {
        self.title = title
        self.links = links
    }
}
