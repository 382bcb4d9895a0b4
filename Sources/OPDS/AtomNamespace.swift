/// The XML namespaces of OPDS 1 feeds.
enum AtomNamespace {
    static let atom = "http://www.w3.org/2005/Atom"
    static let opds = "http://opds-spec.org/2010/catalog"
    static let dcTerms = "http://purl.org/dc/terms/"
    static let dcElements = "http://purl.org/dc/elements/1.1/"
    static let openSearch = "http://a9.com/-/spec/opensearch/1.1/"
    static let thread = "http://purl.org/syndication/thread/1.0"
}
