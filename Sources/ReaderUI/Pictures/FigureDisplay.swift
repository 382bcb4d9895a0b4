import Pictures
import TextLayout

/// The images of a reflowable book drawn in the rows the layout left for them: what is ready,
/// what is being drawn, and what is on the terminal now.
@MainActor
final class FigureDisplay {
    let renderer: FigureRenderer

    /// One picture, or the part of it on screen, at a size.
    struct Request: Hashable, Sendable {
        let href: String
        let columns: Int
        let rows: Int
        let visible: Range<Int>
    }

    /// A picture on the screen: what, and its top-left cell.
    struct Placement: Hashable {
        let request: Request
        let row: Int
        let column: Int
    }

    private(set) var ready: [Request: Result<TerminalPicture, PictureError>] = [:]
    var pending: Set<Request> = []
    /// What was written to the terminal last.
    var drawn: [Placement] = []

    var pictureProtocol: PictureProtocol { renderer.pictureProtocol }

    init(renderer: FigureRenderer) {
        self.renderer = renderer
    }

    func store(_ result: Result<TerminalPicture, PictureError>, for request: Request, keeping wanted: Set<Request>) {
        ready[request] = result
        // Memory follows the screen: only what is shown (and what was just drawn) is kept.
        if ready.count > 12 { for key in ready.keys where !wanted.contains(key) && key != request { ready[key] = nil } }
    }

    func forgetAll() {
        ready.removeAll()
        drawn.removeAll()
    }

    /// The pictures on the page: for each run of picture rows among the visible lines, the
    /// part of the picture they show and where.
    static func placements(layout: LaidOutDocument, visibleLines: Range<Int>, screenRows: Int, leftMargin: Int) -> [Placement] {
        var result: [Placement] = []
        var index = visibleLines.lowerBound
        while index < visibleLines.upperBound, index - visibleLines.lowerBound < screenRows {
            guard let first = layout.lines[index].picture else { index += 1; continue }
            let startRow = index - visibleLines.lowerBound
            var end = index + 1
            while end < visibleLines.upperBound, end - visibleLines.lowerBound < screenRows,
                  let next = layout.lines[end].picture, next.href == first.href, next.row == layout.lines[end - 1].picture!.row + 1 {
                end += 1
            }
            let last = layout.lines[end - 1].picture!
            let request = Request(href: first.href, columns: first.columns, rows: first.rows, visible: first.row..<(last.row + 1))
            result.append(Placement(request: request, row: startRow, column: leftMargin + first.column))
            index = end
        }
        return result
    }
}
