import Shared
import Synchronization

/// Draws the images of a book's text (figures, inline images) at the size the layout gave
/// them, through the publication's fetcher (decrypted in memory for a protected book).
/// Blocks: call it off the main actor.
public final class FigureRenderer: Sendable {
    private let publication: Publication
    public let output: PictureOutput
    public let pictureProtocol: PictureProtocol
    private let lastBitmap = Mutex<(href: String, columns: Int, rows: Int, bitmap: Bitmap)?>(nil)

    public init?(publication: Publication, output: PictureOutput) {
        guard let used = output.protocol else { return nil }
        self.publication = publication
        self.output = output
        pictureProtocol = used
    }

    /// Rows `visible` of the image at `href` drawn as `columns` × `rows` cells.
    public func render(href: String, columns: Int, rows: Int, visible: Range<Int>) throws(PictureError) -> TerminalPicture {
        let bitmap = try decoded(href, columns: columns, rows: rows)
        let shown = max(0, visible.lowerBound)..<min(rows, max(visible.lowerBound + 1, visible.upperBound))
        var part = bitmap
        if shown != 0..<rows {
            let pixelsPerRow = Double(bitmap.height) / Double(rows)
            part = bitmap.rows(Int((Double(shown.lowerBound) * pixelsPerRow).rounded(.down))..<Int((Double(shown.upperBound) * pixelsPerRow).rounded(.up)))
        }
        return try PictureEncoder.encode(part, columns: columns, rows: shown.count, protocol: pictureProtocol,
                                         colors: output.colors, cell: output.cell)
    }

    /// The pixel size the image declares in its first bytes; nil when it cannot be read or
    /// does not say (the image then stays a text placeholder).
    public func declaredSize(href: String) -> (width: Int, height: Int)? {
        Self.declaredSize(of: publication.get(href))
    }

    /// The pixel size `resource` declares in its header.
    public static func declaredSize(of resource: any Resource) -> (width: Int, height: Int)? {
        defer { resource.close() }
        guard case .success(let head) = resource.read(range: 0..<(1 << 16)),
              let header = PictureHeader.read([UInt8](head)), let width = header.width, let height = header.height,
              width > 0, height > 0, (try? PictureLimits.standard.check(width: width, height: height)) != nil else { return nil }
        return (width, height)
    }

    private func decoded(_ href: String, columns: Int, rows: Int) throws(PictureError) -> Bitmap {
        if let last = lastBitmap.withLock({ $0 }), last.href == href, last.columns == columns, last.rows == rows {
            return last.bitmap
        }
        let bitmap = try PicturePages.decode(publication.get(href), maxWidth: columns * output.cell.width,
                                             maxHeight: rows * output.cell.height)
        lastBitmap.withLock { $0 = (href, columns, rows, bitmap) }
        return bitmap
    }
}
