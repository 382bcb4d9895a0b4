import TextLayout

/// The chapters' checkpoints (#28) kept in the library between openings: read with the
/// chapter lengths before a saved place is shown, so that a place deep in a long chapter is
/// shown from a stretch around it; written when a chapter converted whole recorded some.
extension ReaderApp {
    /// Gives `book` the checkpoints kept for its content (only a cache: none when unreadable).
    func loadCachedCheckpoints(_ book: BookController, identity: String) async {
        guard let kept = try? await dependencies.library?.chapterCheckpoints(identity: identity) else { return }
        for (chapter, fields) in kept where chapter >= 0 && chapter < book.source.count && book.state.chapterCheckpoints[chapter] == nil {
            let checkpoints = ChapterCheckpoint.checkpoints(fromFields: fields)
            guard !checkpoints.isEmpty else { continue }
            book.state.chapterCheckpoints[chapter] = checkpoints
            book.keptCheckpoints[chapter] = checkpoints
        }
    }

    /// Keeps the checkpoints of the chapter shown, once whole, when they are not those kept.
    func rememberCheckpoints(_ book: BookController) {
        let chapter = book.state.chapter
        guard let checkpoints = book.state.chapterCheckpoints[chapter], book.keptCheckpoints[chapter] != checkpoints,
              let library = dependencies.library, let identity = book.identity else { return }
        book.keptCheckpoints[chapter] = checkpoints
        let fields = ChapterCheckpoint.fields(of: checkpoints)
        // Only a cache: a failed write costs the text before the place at the next opening.
        book.tasks.start(nil) { _ = try? await library.setChapterCheckpoints(fields, chapter: chapter, identity: identity) }
    }
}
