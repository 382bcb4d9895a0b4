import LibPoppler
import Shared

/// Parses PDF publications through poppler:
///
/// - A PDF file: the manifest is built from the document — metadata (title, else the file
///   name; authors; subjects from the keywords; page count; the PDF profile), the PDF as the
///   only reading-order item, the outline as the table of contents (`<pdf>#page=N`), the
///   page labels as a `pageList`. An encrypted PDF arrives unlocked by
///   ``PDFContentProtection``.
/// - An LCP PDF package (`.lcpdf`): its `manifest.json` is parsed by
///   ``ReadiumWebPubParser``; what the manifest lacks (page count, table of contents, page
///   list) is taken from the PDF, read through the fetcher the LCP protection decrypts.
///
/// Both get a ``PageTextService`` giving the text of each page.
public struct PDFParser: PublicationParser {
    /// Remote resources of package manifests are read through this client.
    public let httpClient: any HTTPClient

    public init(httpClient: any HTTPClient = CurlHTTPClient()) {
        self.httpClient = httpClient
    }

    public func parse(asset: Asset, fetcher: any Fetcher, warnings: (any WarningLogger)?) throws(PublicationParseError) -> PublicationBuilder? {
        switch asset.format.kind {
        case .pdf: try parseFile(asset: asset, fetcher: fetcher)
        case .lcpdf: try parsePackage(asset: asset, fetcher: fetcher, warnings: warnings)
        default: nil
        }
    }

    private func parseFile(asset: Asset, fetcher: any Fetcher) throws(PublicationParseError) -> PublicationBuilder {
        let href = PDFSource.href(of: asset)
        let document: PDFDocument
        if let unlocked = fetcher as? UnlockedPDFFetcher {
            document = unlocked.document
        } else {
            let source: PDFSource
            switch PDFSource.of(asset: asset, fetcher: fetcher) {
            case .success(let found): source = found
            case .failure(.notFound): throw .missingResource(href: href, what: "the PDF")
            case .failure(let error): throw .unreadableResource(href: href, error)
            }
            do {
                document = try source.open(password: nil)
            } catch {
                throw .invalid(href: href, reason: error == .passwordRequired ? "the PDF is protected by a password" : error.description)
            }
        }
        guard document.pageCount > 0 else {
            throw .invalid(href: href, reason: "the PDF has no pages")
        }

        var manifest = Manifest(
            metadata: PDFManifestMapping.metadata(document.metadata, fallbackTitle: AssetName.title(of: asset.name),
                                                  pageCount: document.pageCount),
            readingOrder: [Link(href: href, mediaType: .pdf)],
            tableOfContents: PDFManifestMapping.tableOfContents(document.outline(), pdfHref: href))
        if let pages = PDFManifestMapping.pageList(document.pageLabels(), pdfHref: href) {
            manifest.subcollections["pageList"] = [PublicationCollection(links: pages)]
        }
        var builder = PublicationBuilder(manifest: manifest, fetcher: fetcher, format: asset.format)
        builder.servicesBuilder.set(PublicationServicesBuilder.pageText) { _ in PDFPageTextService(document: document) }
        return builder
    }

    private func parsePackage(asset: Asset, fetcher: any Fetcher, warnings: (any WarningLogger)?) throws(PublicationParseError) -> PublicationBuilder? {
        guard var builder = try ReadiumWebPubParser(httpClient: httpClient).parse(asset: asset, fetcher: fetcher, warnings: warnings) else {
            return nil
        }
        guard let pdfLink = builder.manifest.readingOrder.first(where: Self.isPDF) else {
            warnings.log("the LCP PDF package has no PDF in its reading order", severity: .major)
            return builder
        }
        if !builder.manifest.metadata.conformsTo.contains(Manifest.Profile.pdf) {
            builder.manifest.metadata.conformsTo.append(Manifest.Profile.pdf)
        }
        let loader = PDFDocumentLoader(link: pdfLink)
        let manifest = builder.manifest
        let lacksPageList = manifest.subcollectionLinks("pageList").isEmpty
        if manifest.metadata.numberOfPages == nil || manifest.tableOfContents.isEmpty || lacksPageList {
            switch loader.document(using: fetcher) {
            case .success(let document):
                builder.manifest.metadata.numberOfPages = manifest.metadata.numberOfPages ?? document.pageCount
                if manifest.tableOfContents.isEmpty {
                    builder.manifest.tableOfContents = PDFManifestMapping.tableOfContents(document.outline(), pdfHref: pdfLink.href)
                }
                if lacksPageList, let pages = PDFManifestMapping.pageList(document.pageLabels(), pdfHref: pdfLink.href) {
                    builder.manifest.subcollections["pageList"] = [PublicationCollection(links: pages)]
                }
            case .failure(.unreadable(.forbidden)):
                // Restricted (no passphrase, or no LCP module): the reader will not show it.
                break
            case .failure(let error):
                warnings.log("the PDF cannot be read: \(error)", severity: .major, href: pdfLink.href)
            }
        }
        builder.servicesBuilder.set(PublicationServicesBuilder.pageText) { context in
            PDFPageTextService(loader: loader, fetcher: context.fetcher)
        }
        return builder
    }

    private static func isPDF(_ link: Link) -> Bool {
        if let mediaType = link.mediaType { return mediaType.matches(.pdf) }
        return link.path?.lowercased().hasSuffix(".pdf") ?? false
    }
}
