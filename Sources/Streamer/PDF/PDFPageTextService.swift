import LibPoppler
import Shared
import Synchronization

/// The text and the pictures of a PDF publication page by page (``PageTextService``,
/// ``PageRenderingService``), from the document the
/// parser opened, or — for an LCP PDF package — from the package's PDF opened on first use
/// through the publication's fetcher.
final class PDFPageTextService: PageTextService, PageRenderingService {
    private let resolve: @Sendable () -> PDFDocument?
    private let release: @Sendable () -> Void
    private let labels = Mutex<[String?]?>(nil)

    init(document: PDFDocument) {
        resolve = { document }
        release = { document.close() }
    }

    init(loader: PDFDocumentLoader, fetcher: any Fetcher) {
        // No document, no pages: the parser already reported why the PDF cannot be read as a
        // major warning of the opening (PDFParser), and the loader keeps that first outcome.
        resolve = { try? loader.document(using: fetcher).get() }
        release = { loader.close() }
    }

    var pageCount: Int { resolve()?.pageCount ?? 0 }

    func text(ofPage index: Int) -> String? {
        textBlocks(ofPage: index).map(PageStructure.text(of:))
    }

    func textBlocks(ofPage index: Int) -> [PageTextBlock]? {
        resolve()?.textLayout(ofPage: index).map(PageStructure.blocks(of:))
    }

    func pageLabel(ofPage index: Int) -> String? {
        guard let document = resolve(), index >= 0, index < document.pageCount else { return nil }
        // Labels are read once for all pages: "go to page" looks through every one.
        let all = labels.withLock { cached in
            if let cached { return cached }
            let read = document.pageLabels()
            cached = read
            return read
        }
        return index < all.count ? all[index] ?? String(index + 1) : String(index + 1)
    }

    func pageSize(ofPage index: Int) -> (width: Double, height: Double)? {
        resolve()?.pageSize(at: index)
    }

    func renderPage(_ index: Int, maxWidth: Int, maxHeight: Int) -> Bitmap? {
        guard let image = resolve()?.renderPage(index, maxWidth: maxWidth, maxHeight: maxHeight) else { return nil }
        return Bitmap(width: image.width, height: image.height, stride: image.stride, layout: .bgraPremultiplied, pixels: image.pixels)
    }

    func close() {
        release()
    }
}
