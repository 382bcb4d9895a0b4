import LibXML

/// Reads OPDS 1.x catalogs: Atom feeds (navigation and acquisition) and single Atom entries.
///
/// libxml2 runs through ``XMLDocument``, which never fetches anything and never expands entities,
/// so XXE and entity bombs stay inert.
public enum OPDS1Parser {
    /// How deep `opds:indirectAcquisition` may nest before the rest is ignored.
    static let maxIndirectDepth = 8

    public static func parse(_ bytes: [UInt8], url: String) throws(OPDSError) -> OPDSFeed {
        let document: XMLDocument
        do { document = try XMLDocument(xml: bytes, recover: false) } catch {
            throw .malformed(error.description)
        }
        let root = document.root
        let resolver = CatalogURL(base: url)
        if root.isNamed("entry", namespace: AtomNamespace.atom) {
            let entry = entryLink(root, resolver: resolver)
            let publication = publication(root, resolver: resolver)
            return OPDSFeed(version: .opds1, url: url, metadata: OPDSFeedMetadata(title: publication.metadata.title),
                            navigation: entry.map { [$0] } ?? [], publications: [publication])
        }
        guard root.isNamed("feed", namespace: AtomNamespace.atom) else {
            if root.localName.lowercased() == "html" {
                throw .notACatalog("an HTML page, perhaps a network's sign-in page")
            }
            throw .notACatalog("the root element is <\(CatalogText.sanitized(root.localName))>, not an Atom <feed>")
        }
        var feed = OPDSFeed(version: .opds1, url: url, metadata: feedMetadata(root))
        var facetGroups: [OPDSFacetGroup] = []
        for element in root.children(named: "link", namespace: AtomNamespace.atom) {
            guard let link = link(element, resolver: resolver) else { continue }
            if link.hasRel(OPDSRel.facet) {
                let title = link.properties.facetGroup ?? ""
                if let index = facetGroups.firstIndex(where: { $0.title == title }) {
                    facetGroups[index].links.append(link)
                } else {
                    facetGroups.append(OPDSFacetGroup(title: title, links: [link]))
                }
            } else {
                feed.links.append(link)
            }
        }
        if let icon = resolver.resolve(root.firstChild(named: "icon", namespace: AtomNamespace.atom)?.textContent) {
            feed.links.append(OPDSLink(href: icon, rels: ["icon"]))
        }
        feed.facets = facetGroups
        for entry in root.children(named: "entry", namespace: AtomNamespace.atom) {
            let collection = entry.children(named: "link", namespace: AtomNamespace.atom)
                .first { ["collection", "http://opds-spec.org/group"].contains($0.attribute("rel") ?? "") }
            let isPublication = entry.children(named: "link", namespace: AtomNamespace.atom)
                .contains { ($0.attribute("rel") ?? "").hasPrefix(OPDSRel.acquisition) }
            if let collection, let groupTitle = CatalogText.clean(collection.attribute("title")) {
                let groupLinks = link(collection, resolver: resolver).map { [$0] } ?? []
                var index = feed.groups.firstIndex { $0.title == groupTitle }
                if index == nil {
                    feed.groups.append(OPDSGroup(title: groupTitle, links: groupLinks))
                    index = feed.groups.count - 1
                }
                if isPublication {
                    feed.groups[index!].publications.append(publication(entry, resolver: resolver))
                } else if let navigation = entryLink(entry, resolver: resolver) {
                    feed.groups[index!].navigation.append(navigation)
                }
            } else if isPublication {
                feed.publications.append(publication(entry, resolver: resolver))
            } else if let navigation = entryLink(entry, resolver: resolver) {
                feed.navigation.append(navigation)
            }
        }
        return feed
    }

    private static func feedMetadata(_ root: XMLElement) -> OPDSFeedMetadata {
        func text(_ name: String, _ namespace: String) -> String? {
            CatalogText.clean(root.firstChild(named: name, namespace: namespace)?.textContent)
        }
        return OPDSFeedMetadata(
            identifier: text("id", AtomNamespace.atom),
            title: text("title", AtomNamespace.atom) ?? "",
            subtitle: text("subtitle", AtomNamespace.atom),
            modified: text("updated", AtomNamespace.atom),
            numberOfItems: text("totalResults", AtomNamespace.openSearch).flatMap { Int($0) },
            itemsPerPage: text("itemsPerPage", AtomNamespace.openSearch).flatMap { Int($0) },
            currentPage: nil)
    }

    /// A navigation entry: its title on the link to the feed it leads to.
    private static func entryLink(_ entry: XMLElement, resolver: CatalogURL) -> OPDSLink? {
        let links = entry.children(named: "link", namespace: AtomNamespace.atom).compactMap {
            link($0, resolver: resolver)
        }
        let target = links.first { ($0.type ?? "").contains("opds-catalog") || ($0.type ?? "").contains("atom+xml") }
            ?? links.first { !$0.hasRel(OPDSRel.image) && !$0.hasRel(OPDSRel.thumbnail) }
        guard var target else { return nil }
        let title = CatalogText.clean(entry.firstChild(named: "title", namespace: AtomNamespace.atom)?.textContent)
        target.title = title ?? target.title
        return target
    }

    private static func publication(_ entry: XMLElement, resolver: CatalogURL) -> OPDSPublication {
        func texts(_ name: String, _ namespaces: [String]) -> [String] {
            namespaces.flatMap { entry.children(named: name, namespace: $0) }
                .compactMap { CatalogText.clean($0.textContent) }
        }
        let authors = entry.children(named: "author", namespace: AtomNamespace.atom).compactMap {
            CatalogText.clean($0.firstChild(named: "name", namespace: AtomNamespace.atom)?.textContent)
        }
        // type="html" holds escaped markup: its words are shown, not its tags.
        let summary = ["summary", "content"].lazy.compactMap { name -> String? in
            guard let element = entry.firstChild(named: name, namespace: AtomNamespace.atom) else { return nil }
            let text = element.attribute("type") == "html" ? HTMLSummaryText.plain(element.textContent) : element.textContent
            return CatalogText.clean(text)
        }.first
        let metadata = OPDSPublicationMetadata(
            identifier: texts("identifier", [AtomNamespace.dcTerms, AtomNamespace.dcElements]).first
                ?? texts("id", [AtomNamespace.atom]).first,
            title: texts("title", [AtomNamespace.atom]).first ?? "",
            authors: authors,
            publishers: texts("publisher", [AtomNamespace.dcTerms, AtomNamespace.dcElements]),
            summary: summary,
            languages: texts("language", [AtomNamespace.dcTerms, AtomNamespace.dcElements]),
            subjects: entry.children(named: "category", namespace: AtomNamespace.atom).compactMap {
                CatalogText.clean($0.attribute("label") ?? $0.attribute("term"))
            },
            published: texts("issued", [AtomNamespace.dcTerms, AtomNamespace.dcElements]).first
                ?? texts("published", [AtomNamespace.atom]).first,
            modified: texts("updated", [AtomNamespace.atom]).first)
        var publication = OPDSPublication(metadata: metadata)
        for element in entry.children(named: "link", namespace: AtomNamespace.atom) {
            guard let link = link(element, resolver: resolver) else { continue }
            if link.hasRel(OPDSRel.image) || link.hasRel(OPDSRel.thumbnail)
                || link.hasRel("http://opds-spec.org/cover") || link.hasRel("http://opds-spec.org/thumbnail") {
                publication.images.append(link)
            } else {
                publication.links.append(link)
            }
        }
        return publication
    }

    private static func link(_ element: XMLElement, resolver: CatalogURL) -> OPDSLink? {
        guard let href = resolver.resolve(element.attribute("href")) else { return nil }
        let rels = CatalogText.clean(element.attribute("rel")).map {
            $0.split(separator: " ").map(String.init)
        } ?? ["alternate"]
        var properties = OPDSLinkProperties()
        properties.numberOfItems = element.attribute("count", namespace: AtomNamespace.thread).flatMap { Int($0) }
        properties.facetGroup = CatalogText.clean(element.attribute("facetGroup", namespace: AtomNamespace.opds))
        properties.isActiveFacet = element.attribute("activeFacet", namespace: AtomNamespace.opds) == "true"
        properties.prices = element.children(named: "price", namespace: AtomNamespace.opds).compactMap { price in
            guard let value = Double(price.normalizedText) else { return nil }
            return OPDSPrice(value: value, currency: CatalogText.clean(price.attribute("currencycode")) ?? "")
        }
        properties.indirectAcquisitions = indirectAcquisitions(of: element, depth: 0)
        if let availability = element.firstChild(named: "availability", namespace: AtomNamespace.opds),
           let state = CatalogText.clean(availability.attribute("status") ?? availability.attribute("state")) {
            properties.availability = OPDSAvailability(
                state: state, since: CatalogText.clean(availability.attribute("since")),
                until: CatalogText.clean(availability.attribute("until")))
        }
        let type = CatalogText.clean(element.attribute("type"))
        return OPDSLink(href: href, type: type, rels: rels, title: CatalogText.clean(element.attribute("title")),
                        templated: href.contains("{searchTerms}"), properties: properties)
    }

    private static func indirectAcquisitions(of element: XMLElement, depth: Int) -> [OPDSIndirectAcquisition] {
        guard depth < maxIndirectDepth else { return [] }
        return element.children(named: "indirectAcquisition", namespace: AtomNamespace.opds).compactMap { child in
            guard let type = CatalogText.clean(child.attribute("type")) else { return nil }
            return OPDSIndirectAcquisition(type: type, children: indirectAcquisitions(of: child, depth: depth + 1))
        }
    }
}
