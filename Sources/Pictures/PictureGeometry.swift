/// Where a picture goes in a window of cells: its size in cells, proportions kept.
public enum PictureFit: String, Sendable {
    /// The whole picture in the area.
    case page
    /// The area's full width; as many rows as that takes (panned when taller).
    case width
}

public enum PictureGeometry {
    /// The cells a `pixelWidth` × `pixelHeight` picture takes in `columns` × `rows` cells of
    /// `cell` pixels: as large as `fit` allows, never larger than `maxScale` times its natural
    /// size (1 for an inline figure, unbounded for a comic page), at least one cell.
    public static func cells(pixelWidth: Int, pixelHeight: Int, columns: Int, rows: Int, cell: CellSize,
                             fit: PictureFit = .page, maxScale: Double = .infinity) -> (columns: Int, rows: Int) {
        guard pixelWidth > 0, pixelHeight > 0, columns > 0, rows > 0 else { return (max(1, columns), max(1, rows)) }
        let widthScale = Double(columns * cell.width) / Double(pixelWidth)
        let heightScale = Double(rows * cell.height) / Double(pixelHeight)
        let scale = min(maxScale, fit == .page ? min(widthScale, heightScale) : widthScale)
        let wide = Int((Double(pixelWidth) * scale / Double(cell.width)).rounded())
        let high = Int((Double(pixelHeight) * scale / Double(cell.height)).rounded())
        return (min(columns, max(1, wide)), fit == .page ? min(rows, max(1, high)) : max(1, high))
    }
}
