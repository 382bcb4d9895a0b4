/// The XML namespaces of the EPUB documents. Elements are matched on (namespace, local name),
/// never on prefixes, which differ from one writer to the next.
enum EPUBNamespace {
    static let container = "urn:oasis:names:tc:opendocument:xmlns:container"
    static let opf = "http://www.idpf.org/2007/opf"
    static let dc = "http://purl.org/dc/elements/1.1/"
    static let dcterms = "http://purl.org/dc/terms/"
    static let xhtml = "http://www.w3.org/1999/xhtml"
    static let ops = "http://www.idpf.org/2007/ops"
    static let ncx = "http://www.daisy.org/z3986/2005/ncx/"
    static let xml = "http://www.w3.org/XML/1998/namespace"
    static let xmlenc = "http://www.w3.org/2001/04/xmlenc#"
    static let xmldsig = "http://www.w3.org/2000/09/xmldsig#"
    static let compression = "http://www.idpf.org/2016/encryption#compression"
    static let adept = "http://ns.adobe.com/adept"
}
