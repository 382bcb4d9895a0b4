/// Pictures of the pages of a paged publication (PDF), for a reader that draws pages rather
/// than reflowing their text.
///
/// Installed beside ``PageTextService`` by the PDF parser. Pages are numbered from 0. Calls
/// block while the page is rendered: make them from a background task. The bitmap is the
/// decrypted page: keep it in memory only.
public protocol PageRenderingService: PublicationService {
    /// The size of the page at 0-based `index` in points (1/72 inch); nil when it does not exist.
    func pageSize(ofPage index: Int) -> (width: Double, height: Double)?

    /// The page at 0-based `index` rendered on white, scaled to fit `maxWidth` × `maxHeight`
    /// pixels with its proportions kept; nil when the page does not exist or cannot be drawn.
    func renderPage(_ index: Int, maxWidth: Int, maxHeight: Int) -> Bitmap?
}

extension Publication {
    /// The page rendering service of a PDF publication.
    public var pageRenderingService: (any PageRenderingService)? { findService((any PageRenderingService).self) }
}
