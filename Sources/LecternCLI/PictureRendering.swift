import ArgumentParser
import FoundationEssentials
import Pictures
import Shared
import TextLayout

/// `lectern render --images …`: the pictures of a comic or a PDF, or one image resource, as
/// the reader draws them, written to standard output.
struct PictureRendering {
    let output: PictureOutput
    let protocolUsed: PictureProtocol
    let columns: Int
    /// Nil: as many rows as the picture needs at the full width.
    let rows: Int?

    init?(setting: PictureSetting, columns: Int, rows: Int?) {
        let output = PictureOutput.resolve(setting: setting, environment: ProcessInfo.processInfo.environment)
        guard let used = output.protocol else { return nil }
        self.output = output
        protocolUsed = used
        self.columns = columns
        self.rows = rows
    }

    /// The pages to draw for `publication`: a comic's or a PDF's; nil when it is neither.
    static func pages(of publication: Publication) -> PicturePages? {
        PicturePages(comic: publication) ?? PicturePages(pdf: publication)
    }

    /// Draws page `index` (from 0).
    func render(_ pages: PicturePages, page index: Int) throws(PictureError) -> TerminalPicture {
        let (maxWidth, maxHeight) = pixelBounds
        return try encode(pages.bitmap(index, maxWidth: maxWidth, maxHeight: maxHeight))
    }

    /// Draws one image resource.
    func render(_ resource: any Resource) throws(PictureError) -> TerminalPicture {
        let (maxWidth, maxHeight) = pixelBounds
        return try encode(PicturePages.decode(resource, maxWidth: maxWidth, maxHeight: maxHeight))
    }

    private var pixelBounds: (Int, Int) {
        (columns * output.cell.width, (rows ?? 10_000) * output.cell.height)
    }

    private func encode(_ bitmap: Bitmap) throws(PictureError) -> TerminalPicture {
        let size = PictureGeometry.cells(pixelWidth: bitmap.width, pixelHeight: bitmap.height, columns: columns,
                                         rows: rows ?? 10_000, cell: output.cell, fit: rows == nil ? .width : .page)
        return try PictureEncoder.encode(bitmap, columns: size.columns, rows: size.rows, protocol: protocolUsed,
                                         colors: output.colors, cell: output.cell)
    }
}

extension PictureSetting: ExpressibleByArgument {}

extension PictureRendering {
    /// The picture whose first row is `row`, indented to its column: its rows, or a line saying
    /// why it cannot be drawn.
    static func figure(_ row: LayoutLine.PictureRow, with figures: FigureRenderer) -> String {
        let indent = String(repeating: " ", count: row.column)
        do throws(PictureError) {
            let picture = try figures.render(href: row.href, columns: row.columns, rows: row.rows, visible: 0..<row.rows)
            if picture.protocol.isTextCells { return picture.rowsText.map { indent + $0 }.joined(separator: "\n") + "\n" }
            // Pixels: the sequence, then the rows it covers.
            return indent + picture.rowsText.joined() + String(repeating: "\n", count: max(1, row.rows))
        } catch {
            return indent + "[\(TerminalText.sanitized(row.href)): \(error.description)]\n"
        }
    }
}
