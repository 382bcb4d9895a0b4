import FoundationEssentials
import LibXML
import Shared

/// Parses an HTML document opened on its own (`.html`, `.htm`, `.xhtml`) or a folder with an
/// `index.html`: the page is read as it is, after it the other pages of the folder it links to
/// in the order of its links; headings with an `id` make the contents; relative pictures are
/// read beside it.
public struct HTMLParser: PublicationParser {
    /// The largest page read to find its title, headings and links.
    public static let maxLength: UInt64 = 32 << 20
    /// The most pages a folder's index brings into the reading order.
    public static let maxPages = 2000

    public init() {}

    public func parse(asset: Asset, fetcher: any Fetcher, warnings: (any WarningLogger)?) throws(PublicationParseError) -> PublicationBuilder? {
        guard asset.format.kind == .html || asset.format.kind == .xhtml else { return nil }
        let isFolder = FileKind(path: asset.location) == .directory
        let first = isFolder ? "index.html" : (Href.isAbsoluteURL(asset.location) ? asset.location : Href.fromPath(asset.name))
        let firstPage = try HTMLPage(href: first, fetcher: fetcher, limit: Self.maxLength)
        var pages = [firstPage]
        if isFolder {
            var seen: Set<String> = [first]
            for link in firstPage.pageLinks where pages.count < Self.maxPages && seen.insert(link).inserted {
                guard let page = try? HTMLPage(href: link, fetcher: fetcher, limit: Self.maxLength) else {
                    warnings.log("a page the index links to cannot be read", severity: .minor, href: link)
                    continue
                }
                pages.append(page)
            }
        }
        let title = firstPage.title ?? (isFolder ? asset.name : AssetName.title(of: asset.name))
        let readingOrder = pages.map { Link(href: $0.href, mediaType: $0.mediaType, title: $0.title) }
        var contents = HeadingOutline.contents(pages.flatMap(\.headings))
        if contents.isEmpty { contents = pages.map { Link(href: $0.href, title: $0.title ?? title) } }
        let pictures = pages.flatMap { LocalReferences.pictures($0.pictures, from: $0.href) }
        var metadata = Metadata(title: .nonlocalized(title), languages: firstPage.language.map { [$0] } ?? [])
        metadata.authors = firstPage.authors.map { Contributor(name: .nonlocalized($0)) }
        let listing = GeneratedFetcher(entries: [], listing: readingOrder + pictures, base: fetcher)
        let manifest = Manifest(metadata: metadata, readingOrder: readingOrder, resources: pictures, tableOfContents: contents)
        return PublicationBuilder(manifest: manifest, fetcher: listing, format: asset.format)
    }
}

/// What the HTML parser needs of one page.
struct HTMLPage {
    var href: String
    var mediaType: MediaType
    var title: String?
    var language: String?
    var authors: [String] = []
    var headings: [HeadingOutline.Heading] = []
    var pictures: [String] = []
    /// Other pages of the folder this one links to, resolved, in order.
    var pageLinks: [String] = []

    init(href: String, fetcher: any Fetcher, limit: UInt64) throws(PublicationParseError) {
        self.href = href
        let path = Href.path(of: href) ?? href
        mediaType = MediaType.of(path: path) ?? .html
        if !mediaType.isHTML { mediaType = .html }
        let data = try BoundedRead.data(fetcher.get(Link(href: href)), href: href, limit: limit, what: "the page")
        let document: XMLDocument
        do {
            document = try XMLDocument(html: data, encoding: nil)
        } catch {
            throw .invalid(href: href, reason: "it is not an HTML document (\(error.description))")
        }
        let root = document.root
        language = (root.attribute("lang") ?? root.attribute(localName: "lang"))?.trimmed
        if language?.isEmpty ?? true { language = nil }
        let pageTitle = root.descendants(named: "title").first?.normalizedText
        title = (pageTitle?.isEmpty ?? true) ? root.descendants(named: "h1").first?.normalizedText : pageTitle
        if title?.isEmpty ?? true { title = nil }
        for meta in root.descendants(named: "meta") where meta.attribute("name")?.lowercased() == "author" {
            if let name = meta.attribute("content")?.trimmed, !name.isEmpty { authors.append(name) }
        }
        collect(root, depth: 0)
    }

    private mutating func collect(_ element: XMLElement, depth: Int) {
        guard depth < 200 else { return }
        for child in element.children {
            let name = child.localName.lowercased()
            switch name {
            case "h1", "h2", "h3", "h4":
                if let id = child.attribute("id"), !id.isEmpty {
                    headings.append(HeadingOutline.Heading(level: Int(name.dropFirst()) ?? 1, title: child.normalizedText,
                                                           href: href + "#" + id))
                }
            case "img":
                if let source = child.attribute("src") { pictures.append(source) }
            case "a":
                if let target = child.attribute("href"), !Href.isAbsoluteURL(target), !target.hasPrefix("#") {
                    let resolved = Href.removingFragment(Href.resolve(target, against: href))
                    let ext = FormatHints(path: resolved).fileExtensions.first
                    if ["html", "htm", "xhtml"].contains(ext ?? ""), !resolved.hasPrefix(".."), resolved != href {
                        pageLinks.append(resolved)
                    }
                }
            default:
                break
            }
            collect(child, depth: depth + 1)
        }
    }
}
