import Annotations
import TextLayout

extension ReaderView {
    /// Adds the cells of the person's highlights that cross the page (`offsets`, the text of
    /// the lines shown) to `map`: each is drawn from its range in the chapter's text, laid out
    /// anew at every width, so it follows the words on every page it crosses.
    static func addHighlights(_ book: BookController, layout: LaidOutDocument, offsets: Range<Int>,
                              to map: inout [Int: [(Range<Int>, HighlightPaint)]]) {
        let visible = book.state.visibleLines
        for annotation in book.highlights.crossing(offsets, inChapter: book.state.chapter) {
            guard let range = annotation.target.textRange else { continue }
            let clipped = max(0, range.lowerBound)..<min(layout.document.length, range.upperBound)
            guard !clipped.isEmpty else { continue }
            for (line, columns) in layout.highlights(for: clipped) where visible.contains(line) {
                map[line, default: []].append((columns, .highlight(annotation.color, annotation.style)))
            }
        }
    }
}
