import FoundationEssentials
import LibDjVu
import Shared

/// Parses DjVu documents (a single page, or a bundled or indirect multi-page document)
/// through djvulibre, as a paginated publication like a PDF: the document is the one
/// reading-order item, its pages are drawn as pictures and their hidden text layer is the
/// text (``DjVuPageService``), its outline is the table of contents (`<djvu>#page=N`), its
/// metadata annotations give the title and author.
///
/// A local file is opened by its path (an indirect document finds its page files beside it);
/// anything else is read through the fetcher into memory.
public struct DjVuParser: PublicationParser {
    public init() {}

    public func parse(asset: Asset, fetcher: any Fetcher, warnings: (any WarningLogger)?) throws(PublicationParseError) -> PublicationBuilder? {
        guard asset.format.kind == .djvu else { return nil }
        guard let link = fetcher.links.first else { throw .missingResource(href: asset.name, what: "the DjVu document") }
        let document = try open(asset: asset, link: link, fetcher: fetcher)
        let href = Href.removingFragment(link.href)
        let info = document.metadata()
        let title = info.title ?? AssetName.title(of: asset.name)
        let metadata = Metadata(
            title: .nonlocalized(title),
            authors: info.author.map { [Contributor(name: .nonlocalized($0))] } ?? [],
            numberOfPages: document.pageCount)
        let manifest = Manifest(
            metadata: metadata,
            readingOrder: [Link(href: href, mediaType: .djvu, title: title)],
            tableOfContents: Self.tableOfContents(document.outline(), href: href))
        var builder = PublicationBuilder(manifest: manifest, fetcher: fetcher, format: asset.format)
        builder.servicesBuilder.set(PublicationServicesBuilder.pageText) { _ in DjVuPageService(document: document) }
        return builder
    }

    private func open(asset: Asset, link: Link, fetcher: any Fetcher) throws(PublicationParseError) -> DjVuDocument {
        do {
            if fetcher is FileFetcher, !asset.location.isEmpty {
                return try DjVuDocument(path: asset.location)
            }
            let resource = fetcher.get(link)
            defer { resource.close() }
            if case .success(let length) = resource.length, length > DjVuDocument.maxInMemorySize {
                throw DjVuError.tooLarge(size: length, limit: DjVuDocument.maxInMemorySize)
            }
            switch resource.read(range: 0..<(DjVuDocument.maxInMemorySize + 1)) {
            case .success(let data): return try DjVuDocument(data: data)
            case .failure(let error): throw PublicationParseError.unreadableResource(href: link.href, error)
            }
        } catch let error as DjVuError {
            throw .invalid(href: nil, reason: "\(asset.name): \(error.description)")
        } catch let error as PublicationParseError {
            throw error
        } catch {
            throw .invalid(href: nil, reason: "\(asset.name): \(error)")
        }
    }

    /// The outline as contents: entries that go to a page link to `<href>#page=N`, others
    /// to the document.
    static func tableOfContents(_ outline: [DjVuOutlineItem], href: String) -> [Link] {
        outline.map { item in
            Link(href: item.pageIndex.map { "\(href)#page=\($0 + 1)" } ?? href, mediaType: .djvu,
                 title: item.title.isEmpty ? nil : item.title,
                 children: tableOfContents(item.children, href: href))
        }
    }
}
