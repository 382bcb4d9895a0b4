import Shared

/// The resources a publication serves, by package path: those its manifest lists in the
/// reading order, the resources and the links, with their alternates and children. Nothing
/// else of the package is reachable (not `META-INF/license.lcpl`, not `encryption.xml`):
/// the manifest is the contract.
struct PublicationIndex: Sendable {
    private let links: [String: Link]

    init(manifest: Manifest) {
        var links: [String: Link] = [:]
        func add(_ list: [Link]) {
            for link in list {
                if !link.templated, let remote = RemoteHref.localPath(of: link.href), links[remote] == nil {
                    var plain = link
                    plain.href = Href.removingFragment(link.href)
                    links[remote] = plain
                } else if !link.templated, !Href.isAbsoluteURL(link.href), let path = Href.path(of: link.href), !path.isEmpty,
                          links[path] == nil {
                    var plain = link
                    plain.href = Href.removingFragment(link.href)
                    links[path] = plain
                }
                add(link.alternates)
                add(link.children)
            }
        }
        add(manifest.readingOrder)
        add(manifest.resources)
        add(manifest.links)
        for collections in manifest.subcollections.values {
            for collection in collections { add(collection.links) }
        }
        self.links = links
    }

    /// The manifest's link for a package path (percent-decoded, as routes give it).
    func link(forPath path: String) -> Link? {
        links[path]
    }
}
