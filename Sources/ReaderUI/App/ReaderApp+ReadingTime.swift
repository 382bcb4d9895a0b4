import Bookshelf
import FoundationEssentials
import TextLayout

/// Reading time: the person's pace from page turns (``ReadingPace``), the time left in the
/// chapter and the book on the status line, and per-book statistics kept in the library.
extension ReaderApp {
    /// Starts the session's pace from what every book's statistics measured.
    func loadPace(_ book: BookController) {
        guard let library = dependencies.library else { return }
        book.tasks.start(.readingPace) { [weak book] in
            // Without them the pace starts from this session alone.
            let all = (try? await library.readingStatistics()) ?? [:]
            guard let book, !Task.isCancelled else { return }
            let totals = (all.values.reduce(0) { $0 + $1.seconds }, all.values.reduce(0) { $0 + $1.characters })
            book.pace.include(seconds: totals.0, characters: totals.1)
            book.paceBefore.seconds += totals.0
            book.paceBefore.characters += totals.1
        }
    }

    /// Tells the pace which page is on screen now (after every move).
    func notePage(_ book: BookController) {
        guard book.playback == nil, let layout = book.state.layout, !layout.lines.isEmpty else { return }
        let visible = book.state.visibleLines
        guard let last = visible.last, layout.lines.indices.contains(last) else { return }
        let start = book.state.topOffset
        let length = layout.lines[last].offsets.upperBound - start
        book.pace.show(chapter: book.state.chapter, offset: start, length: length, at: dependencies.clock.now())
    }

    /// Adds this session to the book's statistics when something was read.
    func recordReadingSession(_ book: BookController) {
        guard let library = dependencies.library, let identity = book.identity ?? book.entry?.identity else { return }
        let seconds = book.pace.activeSeconds - book.paceBefore.seconds
        let characters = book.pace.characters - book.paceBefore.characters
        let pages = book.pace.pagesTurned
        guard pages > 0 || seconds > 0 else { return }
        // Now, through the library's writer after the closing position (the program may be
        // ending): the bookshelf shown next reads it. A failure costs this session's minutes in
        // the statistics only.
        try? library.addReadingSessionNow(identity: identity, seconds: max(0, seconds), pages: pages,
                                          characters: max(0, characters))
    }
}

extension BookController {
    /// "12 min left in chapter · 3 h 05 in book" (the book once its chapters are counted).
    var timeLeft: (chapter: String, book: String?)? {
        guard let layout = state.layout, let lastLine = layout.lines.last else { return nil }
        let chapterLeft = max(0, lastLine.offsets.upperBound - state.topOffset)
        let chapter = ReadingPace.duration(minutes: pace.minutes(toRead: chapterLeft))
        guard let lengths = state.chapterLengths, lengths.count == source.count, state.chapter < lengths.count else {
            return (chapter, nil)
        }
        let after = lengths[(state.chapter + 1)...].reduce(0, +)
        let within = Int(Double(lengths[state.chapter]) * (1 - state.chapterProgression))
        return (chapter, ReadingPace.duration(minutes: pace.minutes(toRead: after + within)))
    }
}
