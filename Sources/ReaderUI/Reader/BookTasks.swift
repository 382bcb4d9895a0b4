/// The tasks started for one open book (``BookController``): a task of a kind replaces the
/// previous task of that kind, and ``cancelAll()`` (the book closing) cancels every one and
/// refuses new ones.
///
/// Results come back on the main actor, where closing also happens: a task checks
/// `Task.isCancelled` after each wait, and ``start(_:computing:then:)`` does it for the
/// common case of one computation whose result is applied, so nothing started for a book
/// is applied once it is closed or once a newer task of the same kind started.
@MainActor
final class BookTasks {
    /// What a task does; one task of each kind at a time.
    enum Kind: Hashable, Sendable {
        /// Finding the saved position before the first chapter is loaded.
        case opening
        /// Loading and laying out the chapter to show.
        case chapter
        /// Reading the next chapter ahead.
        case readAhead
        /// Laying the chapter shown out again (resize, layout settings).
        case relayout
        /// Stepping to the next or previous match.
        case search
        /// Listing every match.
        case searchResults
        /// Reading every chapter's text for search and percentages.
        case textIndex
        /// Adding the book to the library (`lectern open` of a new file).
        case libraryEntry
        /// Reading the bookmarks to list them.
        case bookmarks
        /// Reading every book's statistics to start the reading pace from.
        case readingPace
        /// Reading a table of contents left for after the first page.
        case tableOfContents
        /// Resolving and laying out a note to show in a popup.
        case note
        /// Asking the rights whether copying is possible at all.
        case copyPermission
        /// Laying out the print pages or checking the print rights before printing.
        case print
        /// Looking a word up in a local dictionary.
        case lookUp
        /// Saving the page a moment after the last page turn.
        case positionSave
        /// Asking the progress sync server for another device's place, and pushing ours.
        case syncPull, syncPush
        /// Waiting to read the book's highlights again (merged with the sync folder first).
        case annotationRefresh
    }

    private var running: [Kind: (id: Int, task: Task<Void, Never>)] = [:]
    /// Tasks of which several run at once (pictures being decoded), by id.
    private var unkeyed: [Int: Task<Void, Never>] = [:]
    private var lastID = 0
    /// Whether ``cancelAll()`` was called: nothing starts any more.
    private(set) var isClosed = false

    init() {}

    /// The number of tasks started and not finished (for tests).
    var count: Int { running.count + unkeyed.count }

    /// Starts `operation` as the task of `kind`, cancelling the previous one; or, with a nil
    /// kind, beside the others. Returns nil (and starts nothing) once closed.
    @discardableResult
    func start(_ kind: Kind?, _ operation: @escaping @MainActor () async -> Void) -> Task<Void, Never>? {
        guard !isClosed else { return nil }
        lastID += 1
        let id = lastID
        let task = Task { @MainActor [weak self] in
            await operation()
            self?.finished(kind, id: id)
        }
        if let kind {
            running[kind]?.task.cancel()
            running[kind] = (id, task)
        } else {
            unkeyed[id] = task
        }
        return task
    }

    /// Runs `work` (off the main actor when it is nonisolated), then `apply` with its result
    /// on the main actor unless the task was cancelled (replaced, or the book closed) meanwhile.
    @discardableResult
    func start<Value: Sendable>(_ kind: Kind?, computing work: @escaping @Sendable () async -> Value,
                                then apply: @escaping @MainActor (Value) -> Void) -> Task<Void, Never>? {
        start(kind) {
            let value = await work()
            guard !Task.isCancelled else { return }
            apply(value)
        }
    }

    /// Whether a task of `kind` runs.
    func isRunning(_ kind: Kind) -> Bool { running[kind] != nil }

    /// Cancels the task of `kind`, if one runs.
    func cancel(_ kind: Kind) {
        running.removeValue(forKey: kind)?.task.cancel()
    }

    /// Cancels every task and starts none from now on.
    func cancelAll() {
        isClosed = true
        for (_, entry) in running { entry.task.cancel() }
        for (_, task) in unkeyed { task.cancel() }
        running.removeAll()
        unkeyed.removeAll()
    }

    private func finished(_ kind: Kind?, id: Int) {
        if let kind {
            if running[kind]?.id == id { running.removeValue(forKey: kind) }
        } else {
            unkeyed.removeValue(forKey: id)
        }
    }
}
