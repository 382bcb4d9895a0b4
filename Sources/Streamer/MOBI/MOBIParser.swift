import LibMobi
import Shared

/// Parses Mobipocket (MOBI, PRC, AZW) and Kindle Format 8 (AZW3) books through libmobi,
/// which rebuilds them as an EPUB package (KF8 parts as XHTML, an old MOBI's HTML tidied,
/// images, an OPF with the EXTH metadata and cover, an NCX): the EPUB parser reads that
/// package, so that layout, search, positions and the server treat the book as an EPUB.
///
/// A book with Kindle DRM is refused, naming the protection, before any text is decoded.
public struct MOBIParser: PublicationParser {
    public let maxFileSize: UInt64

    public init(maxFileSize: UInt64 = MobiBook.defaultMaxFileSize) {
        self.maxFileSize = maxFileSize
    }

    public func parse(asset: Asset, fetcher: any Fetcher, warnings: (any WarningLogger)?) throws(PublicationParseError) -> PublicationBuilder? {
        guard asset.format.kind == .mobi || asset.format.kind == .azw3 else { return nil }
        let book: MobiBook
        do {
            book = try MobiBook(path: asset.location, maxFileSize: maxFileSize)
        } catch {
            throw .invalid(href: nil, reason: "\(asset.name): \(error.description)")
        }
        let package = MobiPackageFetcher(book: book)
        let epub = Asset(name: asset.name, location: asset.location, format: Format(kind: .epub), fetcher: package)
        guard var builder = try EPUBParser().parse(asset: epub, fetcher: package, warnings: warnings) else { return nil }
        builder.format = asset.format
        return builder
    }
}
