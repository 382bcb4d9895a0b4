import OPDS

/// OPDS catalogs, each parser called on the bytes as they came from the network: OPDS 1 (Atom
/// feeds and entries, through libxml2), OPDS 2 (JSON), the Authentication for OPDS document
/// and the OpenSearch description an OPDS 1 search link leads to. What comes out is used as
/// the catalogs view uses it (pages, search, acquisitions, the sign-in labels), and every text
/// the view shows must already be clean (``CatalogTextInvariant``).
public enum OPDSInput {
    /// Where the documents claim to come from: their hrefs resolve against it.
    static let baseURL = "https://catalog.example.org/opds/root.xml"

    /// An OPDS 1 feed or entry.
    public static func consumeOPDS1(_ bytes: [UInt8]) {
        guard let feed = try? OPDS1Parser.parse(bytes, url: baseURL) else { return }
        use(feed)
    }

    /// An OPDS 2 feed, and the same bytes as a lone publication (what a borrow link answers).
    public static func consumeOPDS2(_ bytes: [UInt8]) {
        if let feed = try? OPDS2Parser.parse(bytes, url: baseURL) { use(feed) }
        if let publication = OPDSParser.publication(bytes, url: baseURL) { use(publication) }
    }

    /// An authentication document (what a 401 from a catalog links to).
    public static func consumeAuthentication(_ bytes: [UInt8]) {
        guard let document = AuthenticationDocument.parse(bytes, url: baseURL) else { return }
        CatalogTextInvariant.check(document.title, "authentication title")
        CatalogTextInvariant.check(document.loginLabel, "login label")
        CatalogTextInvariant.check(document.passwordLabel, "password label")
        for flow in document.flows {
            CatalogTextInvariant.check(flow.type, "authentication type")
            CatalogTextInvariant.check(flow.loginLabel, "flow login label")
            CatalogTextInvariant.check(flow.passwordLabel, "flow password label")
        }
        _ = (document.usableFlow, document.labels, document.wrongCredentials)
    }

    /// An OpenSearch description, and the search URL built from its catalog template.
    public static func consumeOpenSearch(_ bytes: [UInt8]) {
        guard let description = try? OpenSearchDescription.parse(bytes, url: baseURL) else { return }
        CatalogTextInvariant.check(description.shortName, "OpenSearch short name")
        for (type, template) in description.templates {
            CatalogTextInvariant.check(type, "OpenSearch URL type")
            _ = CatalogSearch.url(template: template, terms: "moby dick & co/ü")
        }
        if let template = description.catalogTemplate { _ = CatalogSearch.url(template: template, terms: "x") }
    }

    static func use(_ feed: OPDSFeed) {
        CatalogTextInvariant.check(feed.metadata.title, "feed title")
        CatalogTextInvariant.check(feed.metadata.subtitle, "feed subtitle")
        for direction in OPDSPageDirection.allCases { _ = feed.page(direction) }
        if let search = feed.searchLink, search.templated { _ = CatalogSearch.url(template: search.href, terms: "moby") }
        for link in feed.links + feed.navigation { use(link) }
        for publication in feed.publications { use(publication) }
        for group in feed.groups {
            CatalogTextInvariant.check(group.title, "group title")
            for link in group.links + group.navigation { use(link) }
            for publication in group.publications { use(publication) }
        }
        for facets in feed.facets {
            CatalogTextInvariant.check(facets.title, "facet group title")
            for link in facets.links { use(link) }
        }
    }

    static func use(_ publication: OPDSPublication) {
        let metadata = publication.metadata
        CatalogTextInvariant.check(metadata.title, "publication title")
        CatalogTextInvariant.check(metadata.summary, "publication summary")
        for text in metadata.authors + metadata.publishers + metadata.subjects {
            CatalogTextInvariant.check(text, "author, publisher or subject")
        }
        for link in publication.links + publication.images { use(link) }
        for link in publication.acquisitionLinks { _ = link.acquisitionTypes }
    }

    static func use(_ link: OPDSLink) {
        CatalogTextInvariant.check(link.title, "link title")
        _ = (link.isAcquisition, link.acquisitionTypes)
    }
}

/// Catalog text reaches the terminal: the parsers promise it free of control characters (C0,
/// DEL, C1) and of bidirectional overrides and isolates, which could rewrite what is shown.
enum CatalogTextInvariant {
    static func check(_ text: String?, _ what: @autoclosure () -> String) {
        guard let text else { return }
        let unsafe = text.unicodeScalars.first { scalar in
            let value = scalar.value
            return (value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(value)
                || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
        }
        HarnessInvariant.check(unsafe == nil, "\(what()) holds U+\(String(unsafe?.value ?? 0, radix: 16, uppercase: true))")
    }
}
