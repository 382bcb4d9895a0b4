import Shared

/// The pages of a publication that is read as pictures: a comic (CBZ, Divina, a webpub whose
/// reading order is only images) or a PDF drawn page by page. Decoding happens here, off the
/// main actor; the bitmaps stay in memory.
public struct PicturePages: Sendable {
    private enum Source: Sendable {
        case images([Link])
        case pdf(any PageRenderingService, count: Int)
    }

    private let source: Source
    private let publication: Publication
    /// Whether pages turn from right to left (manga).
    public let isRightToLeft: Bool

    /// The pages of an image-only publication; nil when its reading order holds anything
    /// else. A PDF's pages come from ``init(pdf:)``.
    public init?(comic publication: Publication) {
        let order = publication.readingOrder
        guard !order.isEmpty, order.allSatisfy({ Self.isBitmap($0) }) else { return nil }
        source = .images(order)
        self.publication = publication
        isRightToLeft = publication.metadata.readingProgression == .rtl
    }

    /// The pages of a PDF, drawn by its ``PageRenderingService``; nil for other publications.
    public init?(pdf publication: Publication) {
        guard let service = publication.pageRenderingService, let text = publication.pageTextService, text.pageCount > 0 else { return nil }
        source = .pdf(service, count: text.pageCount)
        self.publication = publication
        isRightToLeft = publication.metadata.readingProgression == .rtl
    }

    /// The number of pages.
    public var count: Int {
        switch source {
        case .images(let links): links.count
        case .pdf(_, let count): count
        }
    }

    /// Page `index` (from 0), scaled to fit `maxWidth` × `maxHeight` pixels.
    public func bitmap(_ index: Int, maxWidth: Int, maxHeight: Int, limits: PictureLimits = .standard) throws(PictureError) -> Bitmap {
        switch source {
        case .images(let links):
            guard links.indices.contains(index) else { throw .empty }
            return try Self.decode(publication.get(links[index]), maxWidth: maxWidth, maxHeight: maxHeight, limits: limits)
        case .pdf(let service, let count):
            guard index >= 0, index < count else { throw .empty }
            guard let bitmap = service.renderPage(index, maxWidth: maxWidth, maxHeight: maxHeight) else {
                throw .damaged("the page cannot be drawn")
            }
            return bitmap
        }
    }

    /// The image of `resource`, decoded to fit `maxWidth` × `maxHeight` pixels (a figure, a
    /// cover). Reads at most ``PictureLimits/maxFileBytes``.
    public static func decode(_ resource: any Resource, maxWidth: Int, maxHeight: Int, limits: PictureLimits = .standard) throws(PictureError) -> Bitmap {
        defer { resource.close() }
        if case .success(let length) = resource.length, length > UInt64(limits.maxFileBytes) { throw .fileTooLarge(Int(length)) }
        switch resource.read() {
        case .success(let data): return try PictureDecoder.decode([UInt8](data), maxWidth: maxWidth, maxHeight: maxHeight, limits: limits)
        case .failure(let error): throw .damaged("\(error)")
        }
    }

    /// Whether `link` is a bitmap image: by its media type, else by its file extension.
    public static func isBitmap(_ link: Link) -> Bool {
        if let mediaType = link.mediaType { return mediaType.isBitmap }
        let path = Href.removingFragment(link.href).lowercased()
        return [".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif", ".bmp"].contains { path.hasSuffix($0) }
    }
}
