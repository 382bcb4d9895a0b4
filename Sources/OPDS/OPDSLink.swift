/// A link of a catalog: to another feed, a search, a cover, or an acquisition of a publication.
///
/// Both OPDS versions map to this one shape; `href` is already resolved against the feed's URL.
public struct OPDSLink: Sendable, Hashable {
    public var href: String
    public var type: String?
    public var rels: [String]
    public var title: String?
    /// Whether `href` is an RFC 6570 URI template (OPDS 2 `templated`, or an OpenSearch template).
    public var templated: Bool
    public var properties: OPDSLinkProperties

    public init(href: String, type: String? = nil, rels: [String] = [], title: String? = nil,
                templated: Bool = false, properties: OPDSLinkProperties = OPDSLinkProperties()) {
        self.href = href
        self.type = type
        self.rels = rels
        self.title = title
        self.templated = templated
        self.properties = properties
    }

    public func hasRel(_ rel: String) -> Bool { rels.contains(rel) }

    /// Whether this link acquires a publication (any `http://opds-spec.org/acquisition…` relation).
    public var isAcquisition: Bool { rels.contains { $0.hasPrefix(OPDSRel.acquisition) } }

    /// The media type finally delivered: the innermost indirect acquisition type, else `type`.
    /// An LCP license link whose indirect type is EPUB reports the license type here, since the
    /// license is what the link gives; use ``acquisitionTypes`` to see the whole chain.
    public var acquisitionTypes: [String] {
        var chain: [String] = type.map { [$0] } ?? []
        var level = properties.indirectAcquisitions
        while let first = level.first {
            chain.append(first.type)
            level = first.children
        }
        return chain
    }
}

/// The relations catalogs use.
public enum OPDSRel {
    public static let acquisition = "http://opds-spec.org/acquisition"
    public static let openAccess = "http://opds-spec.org/acquisition/open-access"
    public static let borrow = "http://opds-spec.org/acquisition/borrow"
    public static let buy = "http://opds-spec.org/acquisition/buy"
    public static let sample = "http://opds-spec.org/acquisition/sample"
    public static let preview = "preview"
    public static let image = "http://opds-spec.org/image"
    public static let thumbnail = "http://opds-spec.org/image/thumbnail"
    public static let facet = "http://opds-spec.org/facet"
    public static let search = "search"
}

/// The OPDS-specific properties of a link.
public struct OPDSLinkProperties: Sendable, Hashable {
    public var numberOfItems: Int?
    public var prices: [OPDSPrice]
    public var indirectAcquisitions: [OPDSIndirectAcquisition]
    public var availability: OPDSAvailability?
    /// For a facet link: whether it is the active one, and its facet group's title (OPDS 1).
    public var isActiveFacet: Bool
    public var facetGroup: String?
    /// The LCP user key the catalog hands out with a borrow (`lcp_hashed_passphrase`), so the
    /// book opens without asking for the passphrase. A secret: never shown.
    public var lcpHashedPassphrase: String?

    public init(numberOfItems: Int? = nil, prices: [OPDSPrice] = [],
                indirectAcquisitions: [OPDSIndirectAcquisition] = [], availability: OPDSAvailability? = nil,
                isActiveFacet: Bool = false, facetGroup: String? = nil) {
        self.numberOfItems = numberOfItems
        self.prices = prices
        self.indirectAcquisitions = indirectAcquisitions
        self.availability = availability
        self.isActiveFacet = isActiveFacet
        self.facetGroup = facetGroup
    }
}

/// A price (`opds:price`, or OPDS 2 `properties.price`).
public struct OPDSPrice: Sendable, Hashable {
    public var value: Double
    public var currency: String

    public init(value: Double, currency: String) {
        self.value = value
        self.currency = currency
    }
}

/// What an acquisition link eventually gives, one level of `opds:indirectAcquisition`.
public struct OPDSIndirectAcquisition: Sendable, Hashable {
    public var type: String
    public var children: [OPDSIndirectAcquisition]

    public init(type: String, children: [OPDSIndirectAcquisition] = []) {
        self.type = type
        self.children = children
    }
}

/// Whether a publication can be had now (`opds:availability`).
public struct OPDSAvailability: Sendable, Hashable {
    /// `available`, `unavailable`, `reserved` or `ready`.
    public var state: String
    public var since: String?
    public var until: String?

    public init(state: String, since: String? = nil, until: String? = nil) {
        self.state = state
        self.since = since
        self.until = until
    }
}
