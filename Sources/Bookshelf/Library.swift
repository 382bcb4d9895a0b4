import Dispatch
import Shared

/// The library as the terminal interface uses it: one serial writer over ``LibraryStore``.
///
/// Every read and write goes through this actor, so they happen one at a time in the order
/// they were asked for (a reading position saved after another never lands before it), and
/// each failure comes back to the caller as a ``LibraryError`` whose `userMessage` the status
/// line shows. Its jobs run on a serial Dispatch queue, not on Swift's cooperative pool: each
/// is disk I/O, which must not hold one of the pool's threads (see ``Blocking``).
public actor Library {
    /// The store underneath (tests; long-running work goes through ``LibraryAccess``).
    public nonisolated let store: LibraryStore
    private nonisolated let executor = LibraryExecutor()

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    public init(store: LibraryStore) {
        self.store = store
    }

    /// Opens (creating and migrating when needed) the library at `path`.
    public init(path: String = LibraryStore.defaultPath) throws(LibraryError) {
        self.init(store: try LibraryStore(path: path))
    }

    // MARK: - Publications

    /// Every publication, in `sort` order.
    public func entries(sort: LibraryStore.Sort = .title) throws(LibraryError) -> [LibraryEntry] {
        try store.entries(sort: sort)
    }

    /// The publication with the content identity `identity`.
    public func entry(identity: String) throws(LibraryError) -> LibraryEntry? {
        try store.entry(identity: identity)
    }

    /// Adds a publication or updates the one with its identity (see ``LibraryStore/add(_:)``).
    @discardableResult
    public func add(_ entry: LibraryEntry) throws(LibraryError) -> LibraryEntry {
        try store.add(entry)
    }

    /// Removes a publication and its bookmarks; returns what was removed.
    @discardableResult
    public func delete(id: Int64) throws(LibraryError) -> LibraryEntry? {
        try store.delete(id: id)
    }

    /// Records that the publication was downloaded into the library folder.
    public func setAcquired(id: Int64) throws(LibraryError) {
        try store.setAcquired(id: id)
    }

    // MARK: - Positions

    /// Records the reading position, after every read and write asked for before it.
    public func savePosition(id: Int64, locator: String, progress: Double?) throws(LibraryError) {
        try store.savePosition(id: id, locator: locator, progress: progress)
    }

    /// Queues the reading position to be recorded and returns at once: it is written after
    /// every read and write asked for before this call, and before any asked for after it (so
    /// a page turn's save never lands after the save of closing the book). A failure is handed
    /// to `failed`, on the library's queue.
    public nonisolated func queuePosition(id: Int64, locator: String, progress: Double?,
                                          failed: @escaping @Sendable (LibraryError) -> Void) {
        let store = store
        executor.async {
            do throws(LibraryError) {
                try store.savePosition(id: id, locator: locator, progress: progress)
            } catch {
                failed(error)
            }
        }
    }

    /// Records the reading position now, blocking the caller until it and every write asked for
    /// before it are done: closing a book as the program ends, when no task would run later.
    public nonisolated func savePositionNow(id: Int64, locator: String, progress: Double?) throws(LibraryError) {
        let store = store
        try executor.sync { () throws(LibraryError) in try store.savePosition(id: id, locator: locator, progress: progress) }
    }

    /// Adds one reading session to the book's statistics now, as ``savePositionNow(id:locator:progress:)``
    /// (closing a book as the program ends).
    public nonisolated func addReadingSessionNow(identity: String, seconds: Double, pages: Int, characters: Int) throws(LibraryError) {
        let statistics = ReadingStatisticsStore(store: store)
        try executor.sync { () throws(LibraryError) in
            try statistics.addSession(identity: identity, seconds: seconds, pages: pages, characters: characters)
        }
    }

    // MARK: - Bookmarks

    /// The bookmarks of a publication, in reading order.
    public func bookmarks(publicationID: Int64) throws(LibraryError) -> [Bookmark] {
        try store.bookmarks(publicationID: publicationID)
    }

    /// Adds a bookmark; returns its row id.
    @discardableResult
    public func addBookmark(_ bookmark: Bookmark, publicationID: Int64) throws(LibraryError) -> Int64 {
        try store.addBookmark(bookmark, publicationID: publicationID)
    }

    /// Adds a bookmark unless its place already has one.
    public func addBookmarkUnlessPresent(_ bookmark: Bookmark, publicationID: Int64) throws(LibraryError) -> BookmarkAddition {
        try store.addBookmarkUnlessPresent(bookmark, publicationID: publicationID)
    }

    /// Renames a bookmark.
    public func renameBookmark(id: Int64, label: String) throws(LibraryError) {
        try store.renameBookmark(id: id, label: label)
    }

    /// Removes a bookmark.
    public func deleteBookmark(id: Int64) throws(LibraryError) {
        try store.deleteBookmark(id: id)
    }

    // MARK: - Book-wide figures and search

    /// The cached text length of each reading-order item of the content `identity`.
    public func textLengths(identity: String) throws(LibraryError) -> [Int]? {
        try store.textLengths(identity: identity)
    }

    /// Caches the text lengths of the content `identity`.
    public func setTextLengths(_ lengths: [Int], identity: String) throws(LibraryError) {
        try store.setTextLengths(lengths, identity: identity)
    }

    /// The passages that best match `query`, at most `limit`.
    public func searchFullText(_ query: FullTextQuery, limit: Int = 20) throws(LibraryError) -> [FullTextHit] {
        try store.searchFullText(query, limit: limit)
    }

    /// How much of the library is in the full-text index.
    public func fullTextCoverage() throws(LibraryError) -> FullTextCoverage {
        try store.fullTextCoverage()
    }
}

/// The serial Dispatch queue ``Library``'s jobs run on, first come first served.
final class LibraryExecutor: SerialExecutor {
    private let queue = DispatchQueue(label: "lectern.library", qos: .userInitiated)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Runs `body` on the queue after every job already on it, without waiting.
    func async(_ body: @escaping @Sendable () -> Void) {
        queue.async(execute: body)
    }

    /// Runs `body` on the queue after every job already on it, and waits for it.
    func sync<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let result = queue.sync { () -> Result<T, E> in
            do throws(E) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
