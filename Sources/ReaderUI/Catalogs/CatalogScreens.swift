import Bookshelf
import OPDS

/// A feed of a catalog as the Catalogs view lists it: its entries (in the order and numbering
/// of `lectern catalog`), then its facets.
public struct CatalogFeedScreen: Sendable {
    public enum Row: Sendable, Hashable {
        /// A link to another feed.
        case navigation(OPDSLink)
        case publication(OPDSPublication)
        /// Another view of the same feed (a sort order, a language…), under its group's title.
        case facet(group: String, OPDSLink)
    }

    public let feed: OPDSFeed
    public let rows: [Row]
    public var list: ListState

    public init(feed: OPDSFeed) {
        self.feed = feed
        let facets = feed.facets.flatMap { group in group.links.map { Row.facet(group: group.title, $0) } }
        rows = CatalogEntry.all(in: feed).map { entry in
            switch entry {
            case .navigation(let link): .navigation(link)
            case .publication(let publication): .publication(publication)
            }
        } + facets
        list = ListState(count: rows.count)
    }

    public var selectedRow: Row? { rows.indices.contains(list.selection) ? rows[list.selection] : nil }
}

/// One publication of a feed: its details, and its acquisition links as a list of actions.
public struct CatalogPublicationScreen: Sendable {
    public let publication: OPDSPublication
    /// The acquisition links, the one Lectern would choose first.
    public let actions: [OPDSLink]
    public var list: ListState

    public init(publication: OPDSPublication) {
        self.publication = publication
        let links = publication.acquisitionLinks
        let preferred = CatalogAcquisition.choose(links)
        actions = preferred.map { chosen in [chosen] + links.filter { $0 != chosen } } ?? links
        list = ListState(count: actions.count)
    }

    public var selectedAction: OPDSLink? { actions.indices.contains(list.selection) ? actions[list.selection] : nil }

    /// What Enter on an action does, in words (`download`, `borrow (LCP)`, `open the sample`).
    public static func verb(of link: OPDSLink) -> String {
        if !CatalogAcquisition.isSupported(link) { return "not supported" }
        if CatalogAcquisition.isSample(link) { return "open the sample" }
        if CatalogAcquisition.isLCP(link) { return link.hasRel(OPDSRel.buy) ? "buy (LCP)" : "borrow (LCP)" }
        return "download"
    }
}

/// What the Catalogs view asks the controller to fetch.
public struct CatalogRequest: Sendable {
    public enum Kind: Sendable {
        /// The feed at this URL.
        case feed(String)
        /// A search of `feed`'s catalog for these words (its OpenSearch description or template).
        case search(OPDSFeed, String)
    }

    public let catalog: SavedCatalog
    public let kind: Kind
    /// Matches the answer to the request still waited for (an answer to a cancelled one is dropped).
    public let generation: Int
}
