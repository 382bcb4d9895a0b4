import Shared
import Synchronization

/// A page drawn for an area of the window: the visible part of the picture, and how many rows
/// the whole picture takes at this fit (more than the area when fitted to the width).
public struct RenderedPage: Sendable, Equatable {
    public let picture: TerminalPicture
    public let totalRows: Int
}

/// Where and how a page is drawn: the part of the window for it, the fit, and the first row
/// shown (panning a picture taller than the area).
public struct PageRequest: Sendable, Hashable {
    public var page: Int
    public var columns: Int
    public var rows: Int
    public var fit: PictureFit
    public var panRow: Int

    public init(page: Int, columns: Int, rows: Int, fit: PictureFit, panRow: Int = 0) {
        self.page = page
        self.columns = columns
        self.rows = rows
        self.fit = fit
        self.panRow = panRow
    }
}

/// Decodes and encodes pages for the reader, one step after the other, off the main actor:
/// decode (scaled to the area), crop to the rows shown, encode for the terminal. The last
/// decoded page is kept, so that panning does not decode again.
public final class PageRenderer: Sendable {
    public let pages: PicturePages
    public let output: PictureOutput
    public let pictureProtocol: PictureProtocol
    private let lastBitmap = Mutex<(page: Int, width: Int, height: Int, bitmap: Bitmap)?>(nil)

    public init?(pages: PicturePages, output: PictureOutput) {
        guard let used = output.protocol else { return nil }
        self.pages = pages
        self.output = output
        pictureProtocol = used
    }

    /// Draws `request`. Blocks: call it off the main actor.
    public func render(_ request: PageRequest) throws(PictureError) -> RenderedPage {
        let cell = output.cell
        let maxWidth = request.columns * cell.width
        let maxHeight = request.fit == .page ? request.rows * cell.height : 20 * request.rows * cell.height
        let bitmap = try decoded(request.page, maxWidth: maxWidth, maxHeight: maxHeight)
        let size = PictureGeometry.cells(pixelWidth: bitmap.width, pixelHeight: bitmap.height, columns: request.columns,
                                         rows: request.rows, cell: cell, fit: request.fit)
        guard size.rows > request.rows else {
            let picture = try PictureEncoder.encode(bitmap, columns: size.columns, rows: size.rows, protocol: pictureProtocol,
                                                    colors: output.colors, cell: cell)
            return RenderedPage(picture: picture, totalRows: size.rows)
        }
        // Taller than the area: only the rows shown are encoded.
        let pan = min(max(0, request.panRow), size.rows - request.rows)
        let pixelsPerRow = Double(bitmap.height) / Double(size.rows)
        let top = Int((Double(pan) * pixelsPerRow).rounded(.down))
        let bottom = min(bitmap.height, Int((Double(pan + request.rows) * pixelsPerRow).rounded(.up)))
        let crop = bitmap.rows(top..<max(top + 1, bottom))
        let picture = try PictureEncoder.encode(crop, columns: size.columns, rows: request.rows, protocol: pictureProtocol,
                                                colors: output.colors, cell: cell)
        return RenderedPage(picture: picture, totalRows: size.rows)
    }

    private func decoded(_ page: Int, maxWidth: Int, maxHeight: Int) throws(PictureError) -> Bitmap {
        if let last = lastBitmap.withLock({ $0 }), last.page == page, last.width == maxWidth, last.height == maxHeight {
            return last.bitmap
        }
        let bitmap = try pages.bitmap(page, maxWidth: maxWidth, maxHeight: maxHeight)
        lastBitmap.withLock { $0 = (page, maxWidth, maxHeight, bitmap) }
        return bitmap
    }
}

extension Bitmap {
    /// Rows `range` of the bitmap, as a bitmap of its own.
    public func rows(_ range: Range<Int>) -> Bitmap {
        let lower = max(0, min(range.lowerBound, height - 1)), upper = max(lower + 1, min(range.upperBound, height))
        let start = lower * stride
        let end = (upper - 1) * stride + width * layout.bytesPerPixel
        return Bitmap(width: width, height: upper - lower, stride: stride, layout: layout, pixels: Array(pixels[start..<end]))
    }
}
