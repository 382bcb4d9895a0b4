/// The entries of a feed, numbered as `lectern catalog` shows them (navigation first, then
/// publications, then each group's), so that `catalog get URL N` names the same one; the
/// bookshelf's Catalogs view lists them in the same order.
public enum CatalogEntry: Sendable, Hashable {
    case navigation(OPDSLink)
    case publication(OPDSPublication)

    public static func all(in feed: OPDSFeed) -> [CatalogEntry] {
        feed.navigation.map { .navigation($0) } + feed.publications.map { .publication($0) }
            + feed.groups.flatMap { group in
                group.navigation.map { .navigation($0) } + group.publications.map { .publication($0) }
            }
    }
}
