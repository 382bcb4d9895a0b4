import CLecternPoppler

/// A PDF page drawn by poppler through cairo: ARGB32 premultiplied in native byte order,
/// i.e. blue, green, red, alpha in memory on the little-endian machines Lectern runs on.
public struct PDFPageImage: Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    public let pixels: [UInt8]
}

extension PDFDocument {
    /// The largest page picture drawn, in pixels: a page claiming a huge media box cannot make
    /// cairo allocate gigabytes.
    public static let maxRenderedPixels = 40_000_000

    /// The size of the page at 0-based `index` in points; nil when it does not exist.
    public func pageSize(at index: Int) -> (width: Double, height: Double)? {
        withPage(index) { page -> PageSize in
            var width = 0.0, height = 0.0
            lectern_poppler_page_get_size(page, &width, &height)
            return PageSize(width: width, height: height)
        }.map { ($0.width, $0.height) }
    }

    /// The page at 0-based `index` drawn on white, scaled to fit `maxWidth` × `maxHeight`
    /// pixels with its proportions kept; nil when the page does not exist, has no area, or
    /// cannot be drawn. The pixels stay in memory.
    public func renderPage(_ index: Int, maxWidth: Int, maxHeight: Int) -> PDFPageImage? {
        guard maxWidth > 0, maxHeight > 0 else { return nil }
        return withPage(index) { page -> PDFPageImage? in
            var pointsWide = 0.0, pointsHigh = 0.0
            lectern_poppler_page_get_size(page, &pointsWide, &pointsHigh)
            guard pointsWide.isFinite, pointsHigh.isFinite, pointsWide >= 1, pointsHigh >= 1 else { return nil }
            var scale = min(Double(maxWidth) / pointsWide, Double(maxHeight) / pointsHigh)
            let area = pointsWide * pointsHigh * scale * scale
            if area > Double(Self.maxRenderedPixels) { scale *= (Double(Self.maxRenderedPixels) / area).squareRoot() }
            let width = max(1, Int((pointsWide * scale).rounded(.down)))
            let height = max(1, Int((pointsHigh * scale).rounded(.down)))
            guard let surface = lectern_poppler_page_render_image(page, Int32(width), Int32(height), scale) else { return nil }
            defer { lectern_cairo_surface_destroy(surface) }
            let stride = Int(lectern_cairo_image_surface_get_stride(surface))
            guard let data = lectern_cairo_image_surface_get_data(surface), stride >= width * 4 else { return nil }
            let pixels = Array(UnsafeBufferPointer(start: data, count: stride * height))
            return PDFPageImage(width: width, height: height, stride: stride, pixels: pixels)
        } ?? nil
    }
}

private struct PageSize: Sendable {
    let width: Double
    let height: Double
}
