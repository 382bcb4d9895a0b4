import CLecternPoppler

/// Extracts the text of one page from poppler, working around two limits of its text
/// selection (what `poppler_page_get_text` uses):
///
/// - A selection runs from a start point to an end point in poppler's reading order. From the
///   top-left corner it can miss blocks that poppler orders right to left (a page whose
///   first block is Arabic comes back empty or partial). The page is selected both from the
///   top-left and from the top-right corner, and the selection with more text wins (the
///   top-left one on a tie). poppler keeps the page's text layout between the two calls, so
///   the second costs little.
/// - Right-to-left runs come back wrapped in bidi embedding marks (RLE/LRE/PDF), reversed
///   from drawing order. See ``BidiText`` for the repair and for what remains.
enum PageText {
    /// The page's text, and the boxes of its characters when poppler gives a layout.
    static func read(_ page: OpaquePointer) -> PDFPageLayout {
        var width = 0.0, height = 0.0
        lectern_poppler_page_get_size(page, &width, &height)
        var forward = lectern_poppler_rectangle(x1: 0, y1: 0, x2: width, y2: height)
        var backward = lectern_poppler_rectangle(x1: width, y1: 0, x2: 0, y2: height)
        let forwardText = takeString(lectern_poppler_page_get_selected_text(page, &forward)) ?? ""
        let backwardText = takeString(lectern_poppler_page_get_selected_text(page, &backward)) ?? ""
        let useBackward = contentCount(backwardText) > contentCount(forwardText)
        let text = useBackward ? backwardText : forwardText
        let hasMarks = text.unicodeScalars.contains(where: BidiText.isEmbeddingMark)

        // The layout gives one box per character of the same selection (marks excluded).
        var area = useBackward ? backward : forward
        var rectangles: UnsafeMutablePointer<lectern_poppler_rectangle>?
        var count: UInt32 = 0
        guard lectern_poppler_page_get_text_layout_for_area(page, &area, &rectangles, &count) != 0, let rectangles else {
            return PDFPageLayout(text: hasMarks ? BidiText.strippingMarks(text) : text, boxes: nil)
        }
        defer { lectern_g_free(rectangles) }
        let boxes = (0..<Int(count)).map { index in
            let rectangle = rectangles[index]
            return BidiText.Box(x1: rectangle.x1, y1: rectangle.y1, x2: rectangle.x2, y2: rectangle.y2)
        }
        return PDFPageLayout(text: hasMarks ? BidiText.logicalText(text, boxes: boxes) : text, boxes: boxes)
    }

    /// Characters that carry content: no whitespace, no bidi marks.
    static func contentCount(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { count, scalar in
            scalar.properties.isWhitespace || BidiText.isEmbeddingMark(scalar) ? count : count + 1
        }
    }
}
