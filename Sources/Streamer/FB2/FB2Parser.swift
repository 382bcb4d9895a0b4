import FoundationEssentials
import LibXML
import Shared

/// Parses FictionBook 2 (`.fb2`, and `.fb2.zip` holding one): `description` gives the metadata
/// and the cover (``FB2Metadata``), each top-level `section` of the main body becomes a
/// generated XHTML chapter (nested sections its contents), the notes body one document whose
/// notes open in popups from their references, and the base64 `binary` pictures resources
/// decoded on first read.
///
/// A document type declaration is refused before parsing: FB2 never needs one, and it is how
/// entity-expansion bombs ("billion laughs") and external entities come in.
public struct FB2Parser: PublicationParser {
    /// The largest FB2 document read (pictures included, in base64).
    public static let maxLength: UInt64 = 128 << 20
    /// The most pictures taken from one document.
    public static let maxPictures = 10_000

    public init() {}

    public func parse(asset: Asset, fetcher: any Fetcher, warnings: (any WarningLogger)?) throws(PublicationParseError) -> PublicationBuilder? {
        let href: String
        switch asset.format.kind {
        case .fb2:
            href = Href.isAbsoluteURL(asset.location) ? asset.location : Href.fromPath(asset.name)
        case .fb2Zip:
            guard let entry = fetcher.links.first(where: { FormatHints(path: $0.href).fileExtensions.first == "fb2" }) else {
                throw .missingResource(href: asset.name, what: "the FB2 document of the archive")
            }
            href = entry.href
        default:
            return nil
        }
        let data = try BoundedRead.data(fetcher.get(Link(href: href)), href: href, limit: Self.maxLength, what: "the FB2 document")
        if let declaration = Self.documentTypeDeclaration(in: data) {
            throw .invalid(href: href, reason: "it declares a document type (\(declaration)), which FB2 never needs: refused, "
                + "since entities declared there can expand without bound or read other files")
        }
        let document: XMLDocument
        do {
            document = try XMLDocument(xml: data, recover: false)
        } catch {
            guard let recovered = try? XMLDocument(xml: data, recover: true) else {
                throw .invalid(href: href, reason: "it is not a well-formed FB2 document (\(error.description))")
            }
            warnings.log("the FB2 document is not well-formed (\(error.description)); what could be read is shown",
                         severity: .moderate, href: href)
            document = recovered
        }
        let root = document.root
        guard root.localName == "FictionBook" else {
            throw .invalid(href: href, reason: "its root element is <\(root.localName)>, not <FictionBook>")
        }
        let bodies = root.children(named: "body")
        guard let main = bodies.first else { throw .invalid(href: href, reason: "it has no <body> (truncated file?)") }
        let notes = bodies.dropFirst().filter { $0.attribute("name") != nil }
        let others = bodies.dropFirst().filter { $0.attribute("name") == nil }

        var (metadata, coverReference) = FB2Metadata.read(root.firstChild(named: "description"), fallbackTitle: AssetName.title(of: asset.name))
        let pictures = FB2Pictures(root: root, limit: Self.maxPictures, warnings: warnings, href: href)
        var parts = FB2Parts(bodies: [main] + others, notes: notes)
        let book = GeneratedBook(title: metadata.title ?? "", language: metadata.languages.first, hrefPrefix: "fb2/chapter-")
        let documents = parts.generate(names: { book.href(ofDocument: $0).dropFirst(4).description }, base: "fb2/",
                                       pictureOfID: pictures.relativeHrefs)
        guard !documents.isEmpty else { throw .invalid(href: href, reason: "its <body> is empty") }
        var resources = pictures.entries
        if let coverReference, let index = pictures.index(ofID: coverReference) {
            resources[index].link.rels.append("cover")
        } else if coverReference != nil {
            warnings.log("the cover picture is not in the document", severity: .minor, href: href)
        }
        if metadata.title == nil || metadata.title?.isEmpty == true { metadata.localizedTitle = .nonlocalized(AssetName.title(of: asset.name)) }
        return book.builder(documents: documents, resources: resources, metadata: metadata, base: fetcher, format: asset.format)
    }

    /// The `<!DOCTYPE …` (or `<!ENTITY`) before the root element, shortened for a message.
    static func documentTypeDeclaration(in data: Data) -> String? {
        let prolog = data.prefix(64 << 10)
        let text = String(decoding: prolog, as: UTF8.self)
        let root = text.firstRange(of: "<FictionBook")?.lowerBound ?? text.endIndex
        let head = text[..<root]
        for marker in ["<!DOCTYPE", "<!ENTITY", "<!doctype"] {
            if let range = head.firstRange(of: marker) { return String(head[range.lowerBound...].prefix(40)) + "…" }
        }
        return nil
    }
}
