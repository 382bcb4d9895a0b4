/// The XML namespaces the EPUB parser matches elements and attributes on. Where documents
/// agree on namespaces (`encryption.xml`, Dublin Core, `epub:type`) elements are matched on
/// namespace and local name, never on prefixes, which differ from one writer to the next.
/// OPF, XHTML and NCX elements are matched on local name only: real EPUB 2 files put them in
/// the right namespace, in none, or behind an `opf:` prefix.
enum EPUBNamespace {
    static let container = "urn:oasis:names:tc:opendocument:xmlns:container"
    static let dc = "http://purl.org/dc/elements/1.1/"
    static let ops = "http://www.idpf.org/2007/ops"
    static let xml = "http://www.w3.org/XML/1998/namespace"
    static let xmlenc = "http://www.w3.org/2001/04/xmlenc#"
    static let xmldsig = "http://www.w3.org/2000/09/xmldsig#"
    static let compression = "http://www.idpf.org/2016/encryption#compression"
    static let adept = "http://ns.adobe.com/adept"
}
