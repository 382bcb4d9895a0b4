import TextLayout

extension ReaderView {
    /// Adds the words being read aloud (``ReadAloudSession``) to the page's highlights, above
    /// the person's own (a selection or a search match stays above them).
    static func addReadAloud(_ book: BookController, layout: LaidOutDocument, to map: inout [Int: [(Range<Int>, HighlightPaint)]]) {
        guard let session = ReadAloudSession.of(book), let current = session.current,
              book.chapterIndex(of: current.href) == book.state.chapter else { return }
        let visible = book.state.visibleLines
        for (range, paint) in session.highlights(in: layout.document) {
            for (line, columns) in layout.highlights(for: range) where visible.contains(line) {
                map[line, default: []].append((columns, paint))
            }
        }
    }

    /// The read-aloud session's line for the status bar, while one reads.
    static func readAloudStatus(_ book: BookController) -> String? {
        ReadAloudSession.of(book)?.statusText
    }
}
