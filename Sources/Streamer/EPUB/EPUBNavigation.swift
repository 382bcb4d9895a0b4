import FoundationEssentials
import Shared

/// The navigation of a publication: the EPUB 3 navigation document when there is one, the
/// NCX for what it lacks (EPUB 2 books, or a navigation document without a `toc`).
struct EPUBNavigation {
    private(set) var tableOfContents: [Link] = []
    /// `landmarks`, `pageList`, `loi`, `lot`, `loa`, `lov`.
    private(set) var subcollections: [String: [PublicationCollection]] = [:]

    /// Navigation types and the manifest collection role they become.
    private static let roles = [("page-list", "pageList"), ("landmarks", "landmarks"), ("loi", "loi"), ("lot", "lot"),
                                ("loa", "loa"), ("lov", "lov")]

    /// - Parameter spineTOCHref: the href of the manifest item the spine's `toc` attribute names
    ///   (the NCX), when there is one.
    ///   - guide: the EPUB 2 guide's references: the landmarks when the navigation document
    ///     lists none.
    init(spineTOCHref: String?, guide: [Link] = [], readingOrder: [Link], resources: [Link], fetcher: any Fetcher,
         warnings: (any WarningLogger)?) {
        defer {
            if subcollections["landmarks"] == nil, !guide.isEmpty { subcollections["landmarks"] = [PublicationCollection(links: guide)] }
        }
        // The reading order, then the resources, searched in place: not copied into one array
        // (#28: thousands of links, while the navigation document is parsed).
        func first(_ found: (Link) -> Bool) -> Link? { readingOrder.first(where: found) ?? resources.first(where: found) }
        if let navLink = first({ $0.hasRel("contents") }), let data = Self.read(navLink, fetcher, warnings) {
            let navigation = NavigationDocumentParser(data: data, href: Href.removingFragment(navLink.href), warnings: warnings)
            tableOfContents = navigation.navigations["toc"] ?? []
            for (type, role) in Self.roles {
                if let list = navigation.navigations[type], !list.isEmpty {
                    subcollections[role] = [PublicationCollection(links: list)]
                }
            }
        }
        guard tableOfContents.isEmpty || subcollections["pageList"] == nil else { return }

        let ncxLink = spineTOCHref.flatMap { readingOrder.first(withHREF: $0) ?? resources.first(withHREF: $0) }
            ?? first { $0.mediaType?.matches(.ncx) == true }
        guard let ncxLink, let data = Self.read(ncxLink, fetcher, warnings) else { return }
        let ncx = NCXParser(data: data, href: Href.removingFragment(ncxLink.href), warnings: warnings,
                            onlyPageList: !tableOfContents.isEmpty)
        if tableOfContents.isEmpty { tableOfContents = ncx.tableOfContents }
        if subcollections["pageList"] == nil, !ncx.pageList.isEmpty {
            subcollections["pageList"] = [PublicationCollection(links: ncx.pageList)]
        }
    }

    /// The table of contents and the other collections, as a manifest holds them.
    var collections: DeferredNavigation.Collections {
        DeferredNavigation.Collections(tableOfContents: tableOfContents, subcollections: subcollections)
    }

    private static func read(_ link: Link, _ fetcher: any Fetcher, _ warnings: (any WarningLogger)?) -> Data? {
        var link = link
        link.href = Href.removingFragment(link.href)
        switch fetcher.readXMLDocumentData(link) {
        case .success(let data):
            return data
        case .failure(let error):
            warnings?.log(Warning("the navigation cannot be read: \(error)", severity: .moderate, href: link.href))
            return nil
        }
    }
}
