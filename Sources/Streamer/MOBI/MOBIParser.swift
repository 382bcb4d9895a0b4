import FoundationEssentials
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
        // Through the fetcher (the file at its name), so that a book from anywhere is read the same.
        guard let link = fetcher.links.first else { throw .missingResource(href: asset.name, what: "the book") }
        let resource = fetcher.get(link)
        defer { resource.close() }
        if case .success(let length) = resource.length, length > maxFileSize {
            throw .invalid(href: nil, reason: "\(asset.name): \(MobiError.tooLarge(size: length, limit: maxFileSize).description)")
        }
        let book: MobiBook
        do {
            let data: Data
            switch resource.read(range: 0..<(maxFileSize + 1)) {
            case .success(let read): data = read
            case .failure(let error): throw PublicationParseError.unreadableResource(href: link.href, error)
            }
            do {
                book = try MobiBook(data: data, maxFileSize: maxFileSize)
            } catch {
                throw PublicationParseError.invalid(href: nil, reason: "\(asset.name): \(error.description)")
            }
        } catch let error as PublicationParseError {
            throw error
        } catch {
            throw .invalid(href: nil, reason: "\(error)")
        }
        let package = MobiPackage.fetcher(of: book)
        let epub = Asset(name: asset.name, location: asset.location, format: Format(kind: .epub), fetcher: package)
        guard var builder = try EPUBParser().parse(asset: epub, fetcher: package, warnings: warnings) else { return nil }
        builder.format = asset.format
        return builder
    }
}
