import LibDjVu
import Shared

/// The text and the pictures of a DjVu publication page by page (``PageTextService``,
/// ``PageRenderingService``): the hidden text layer of each page, and the page drawn by
/// djvulibre. A page without a text layer has no text: the reader shows its picture.
final class DjVuPageService: PageTextService, PageRenderingService {
    private let document: DjVuDocument

    init(document: DjVuDocument) {
        self.document = document
    }

    var pageCount: Int { document.pageCount }

    /// Whether any page has a text layer (the first pages that have one are enough to know).
    var hasText: Bool {
        (0..<document.pageCount).contains { !(document.textBlocks(ofPage: $0) ?? []).isEmpty }
    }

    func text(ofPage index: Int) -> String? {
        document.textBlocks(ofPage: index).map { $0.map(\.text).joined(separator: "\n\n") }
    }

    func textBlocks(ofPage index: Int) -> [PageTextBlock]? {
        document.textBlocks(ofPage: index).map { $0.map { PageTextBlock(kind: .paragraph, text: $0.text) } }
    }

    func pageLabel(ofPage index: Int) -> String? {
        index >= 0 && index < document.pageCount ? String(index + 1) : nil
    }

    func pageSize(ofPage index: Int) -> (width: Double, height: Double)? {
        document.pageSize(index)
    }

    func renderPage(_ index: Int, maxWidth: Int, maxHeight: Int) -> Bitmap? {
        guard let image = document.renderPage(index, maxWidth: maxWidth, maxHeight: maxHeight) else { return nil }
        return Bitmap(width: image.width, height: image.height, stride: image.stride, layout: .rgb, pixels: image.pixels)
    }

    func close() {
        document.close()
    }
}
