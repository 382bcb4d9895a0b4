import Pictures
import Shared

/// The pages of a comic or a PDF shown as pictures in the reader: what is drawn, what is
/// ready, what was last written to the terminal. Decoding runs off the main actor
/// (``PageRenderer``); this holds its results for the page shown and its neighbours.
@MainActor
final class PictureDisplay {
    let renderer: PageRenderer
    /// Whether pages are shown as pictures: always for a comic; a PDF switches with `P`.
    var isOn: Bool
    /// Whether the book is a PDF (its text can be shown instead).
    let isPDF: Bool
    var fit: PictureFit = .page
    /// The first row of the picture at the top of the window (fit width, a tall picture).
    var panRow = 0
    /// Drawn pages, or why a page cannot be drawn, by request.
    private(set) var ready: [PageRequest: Result<RenderedPage, PictureError>] = [:]
    /// Requests being decoded.
    var pending: Set<PageRequest> = []
    /// Two pages side by side (`D`): the cover alone, then 1–2, 3–4…
    var spread = false
    /// What is on the terminal now: each page drawn and its top-left cell.
    var drawn: [Placement] = []

    /// A page on the screen.
    struct Placement: Equatable {
        let request: PageRequest
        let row: Int
        let column: Int
    }

    var pictureProtocol: PictureProtocol { renderer.pictureProtocol }

    init(renderer: PageRenderer, isPDF: Bool) {
        self.renderer = renderer
        self.isPDF = isPDF
        isOn = !isPDF || renderer.pictureProtocol != .symbols
    }

    /// The pages shown with `page` (0-based) in a book of `count` pages: itself, or its spread.
    func pagesShown(with page: Int, count: Int) -> [Int] {
        guard spread, fit == .page, page > 0 else { return [page] }
        let first = page % 2 == 1 ? page : page - 1
        return first + 1 < count ? [first, first + 1] : [first]
    }

    /// The requests for the pages shown with `page` in an area of `columns` × `rows` cells
    /// (two pages share the width, a cell apart).
    func requests(with page: Int, count: Int, columns: Int, rows: Int) -> [PageRequest] {
        let pages = pagesShown(with: page, count: count)
        let width = pages.count == 2 ? max(1, (columns - 1) / 2) : columns
        return pages.map { request(page: $0, columns: width, rows: rows) }
    }

    /// The request for `page` in an area of `columns` × `rows` cells.
    func request(page: Int, columns: Int, rows: Int) -> PageRequest {
        PageRequest(page: page, columns: columns, rows: rows, fit: fit, panRow: fit == .width ? panRow : 0)
    }

    func result(for request: PageRequest) -> Result<RenderedPage, PictureError>? {
        ready[request]
    }

    /// Keeps `result`, forgetting drawn pages far from `page` (memory follows the screen).
    func store(_ result: Result<RenderedPage, PictureError>, for request: PageRequest, around pages: [Int]) {
        ready[request] = result
        // The spread shown (or being loaded) and the ones before and after it.
        for key in ready.keys where !pages.contains(where: { abs(key.page - $0) <= 3 }) { ready[key] = nil }
        if ready.count > 12 {
            for key in ready.keys where !pages.contains(key.page) && key != request { ready[key] = nil }
        }
    }

    /// Forgets every drawn page (the window changed size).
    func forgetAll() {
        ready.removeAll()
    }
}
