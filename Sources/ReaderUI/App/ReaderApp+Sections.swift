import Shared

/// `]` and `[` by contents entries (#29 item 7): a book in one file with six sections moves
/// section by section; files are what is left to move by where the contents say nothing.
extension ReaderApp {
    /// Moves to the next (or previous) contents entry, `count` entries on; by chapter files
    /// (``ReaderState/perform(_:count:)``) when no entry lies that way.
    func stepSection(_ book: BookController, forward: Bool, count: Int?) {
        let action: ReaderAction = forward ? .nextChapter : .previousChapter
        let chapter = book.state.chapter
        // An audiobook's contents are times in its tracks (`(` and `)` step through them):
        // `]` and `[` go from track to track.
        guard book.state.layout != nil, !book.sections.isEmpty, !book.publication.isAudiobook,
              let stop = book.sections.step(forward: forward, count: count, chapter: chapter, place: book.state.top,
                                            page: book.state.rows, positionOf: book.lineOfEntry),
              // A file no entry points into (a contents page, a title page) is not skipped: the
              // start of the file, when it comes before the entry, is where to go.
              count != nil || (forward ? stop.chapter <= chapter + 1 : stop.chapter >= chapter - (book.state.top > 0 ? 0 : 1)) else {
            apply(fileStep(book, action: action, count: count), book)
            return
        }
        notePage(book)
        let entry = book.tocEntries[stop.entry]
        let anchor: ReaderState.Anchor = book.source.isPaged ? .start : entry.fragment.map { .fragment($0) } ?? .start
        if stop.chapter == book.state.chapter, stop.position != nil, book.loadingChapter == nil {
            book.state.move(to: anchor)
            savePosition(book)
        } else {
            load(book, chapter: stop.chapter, anchor: anchor)
        }
    }

    /// `]` or `[` by files, said of pages in a PDF.
    private func fileStep(_ book: BookController, action: ReaderAction, count: Int?) -> ReaderState.Effect {
        let effect = book.state.perform(action, count: count)
        guard book.source.isPaged, case .message(let text) = effect else { return effect }
        switch text {
        case "This is the last chapter.": return .message("This is the last page.")
        case "This is the first chapter.": return .message("This is the first page.")
        default: return effect
        }
    }
}
