import LibXML

/// Names an XML document from its root element: an Atom feed or entry with OPDS links is an
/// OPDS 1 catalog, an `html` root is XHTML (HTML when it has no namespace), anything else
/// well-formed enough to have a root is XML.
///
/// The document is parsed by ``LibXML/XMLDocument``, which never loads external entities nor
/// substitutes internal ones into the tree.
enum XMLFormatSniffer {
    static let atomNamespace = "http://www.w3.org/2005/Atom"

    /// The format of `bytes`, or nil when they hold no XML root element.
    static func format(of bytes: some Collection<UInt8>) -> Format? {
        // libxml2 refuses an XML declaration after whitespace; sniffing forgives it.
        let significant = ContentSignature.significantBytes(of: bytes)
        guard let document = try? XMLDocument(xml: significant, recover: true) else { return nil }
        let root = document.root
        switch root.localName.lowercased() {
        case "html":
            return Format(kind: root.namespaceURI == nil ? .html : .xhtml)
        case "fictionbook":
            return Format(kind: .fb2)
        case "feed" where root.namespaceURI == atomNamespace:
            return Format(kind: hasOPDSLinks(root) ? .opds1Feed : .xml)
        case "entry" where root.namespaceURI == atomNamespace:
            return Format(kind: hasOPDSLinks(root) ? .opds1Entry : .xml)
        default:
            return Format(kind: .xml)
        }
    }

    /// Whether the feed or entry, or one of the feed's entries, has a link with an OPDS
    /// relation (`http://opds-spec.org/…`) or an OPDS catalog media type.
    private static func hasOPDSLinks(_ root: XMLElement) -> Bool {
        let links = root.children(named: "link", namespace: atomNamespace)
            + root.children(named: "entry", namespace: atomNamespace)
                .flatMap { $0.children(named: "link", namespace: atomNamespace) }
        return links.contains { link in
            if let rel = link.attribute("rel"), rel.hasPrefix("http://opds-spec.org/") { return true }
            if let type = link.attribute("type").flatMap(MediaType.init),
               type.essence == "application/atom+xml", type.parameters["profile"] == "opds-catalog" { return true }
            return false
        }
    }
}
