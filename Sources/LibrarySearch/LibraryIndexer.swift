import Bookshelf
import FoundationEssentials
import Shared
import TextLayout

/// Builds the library's full-text index: for each unprotected publication not yet indexed,
/// opens it (never prompting), and stores the chunks of its reading order item by item, each
/// in its own transaction — indexing can stop at any point (cancelled, the program quits)
/// and resumes at the next item.
///
/// Protected publications are never indexed: decrypted text never reaches the disk. A
/// publication that opens with a content protection despite its library mark is skipped too.
public struct LibraryIndexer: Sendable {
    /// Where the index is read and written.
    public let library: any LibraryAccess
    public let open: PublicationOpening
    /// Books indexed at the same time (each converts its text on one core).
    public let parallelism: Int

    /// `parallelism` defaults to the machine's cores (the command line); the interface, which
    /// must keep a core for the reader, indexes one book at a time.
    public init(library: any LibraryAccess, open: @escaping PublicationOpening,
                parallelism: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.library = library
        self.open = open
        self.parallelism = max(1, parallelism)
    }

    /// Indexes straight into `store` (the command line).
    public init(store: LibraryStore, open: @escaping PublicationOpening,
                parallelism: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.init(library: store, open: open, parallelism: parallelism)
    }

    /// What indexing did.
    public struct Report: Sendable {
        /// Publications whose text is now completely indexed.
        public var indexed: [String] = []
        /// Publications that could not be indexed, with why (they stay pending).
        public var failed: [(title: String, reason: String)] = []
        /// Whether indexing stopped because it was cancelled.
        public var cancelled = false
    }

    /// Indexes every pending publication (``LibraryStore/fullTextPending()``), or those of
    /// `onlyIDs`; `progress` is told each publication as it starts. Stops between two items
    /// once `isCancelled` answers true.
    public func indexPending(onlyIDs: Set<Int64>? = nil, progress: (@Sendable (LibraryEntry) -> Void)? = nil,
                             isCancelled: @escaping @Sendable () -> Bool = { false }) async -> Report {
        var report = Report()
        let library = library
        let pending: [LibraryEntry]
        do throws(LibraryError) {
            pending = try await library.perform { store throws(LibraryError) in try store.fullTextPending() }
        } catch {
            report.failed.append((title: "the library", reason: error.userMessage))
            return report
        }
        let selected = pending.filter { onlyIDs?.contains($0.id) ?? true }
        // Converting text is the cost and it runs on one core per book: books are indexed side
        // by side, one per core; their writes are serialised by the library.
        let parallelism = max(1, min(self.parallelism, selected.count))
        await withTaskGroup(of: (LibraryEntry, Outcome).self) { group in
            var next = selected.makeIterator()
            func startNext() -> Bool {
                guard !isCancelled(), let entry = next.next() else { return false }
                progress?(entry)
                group.addTask { (entry, await self.index(entry, isCancelled: isCancelled)) }
                return true
            }
            for _ in 0..<parallelism {
                if !startNext() { break }
            }
            while let (entry, outcome) = await group.next() {
                switch outcome {
                case .indexed: report.indexed.append(entry.title)
                case .failed(let reason): report.failed.append((title: entry.title, reason: reason))
                case .cancelled: report.cancelled = true
                }
                if !report.cancelled { _ = startNext() }
            }
        }
        if isCancelled(), report.indexed.count + report.failed.count < selected.count { report.cancelled = true }
        return report
    }

    enum Outcome {
        case indexed
        case failed(String)
        case cancelled
    }

    /// Indexes one publication from where its indexing stopped.
    func index(_ entry: LibraryEntry, isCancelled: @escaping @Sendable () -> Bool) async -> Outcome {
        let publication: Publication
        switch await open(entry.path, false, nil) {
        case .success(let opened): publication = opened.publication
        case .failure(let failure): return .failed(failure.message)
        }
        defer { publication.close() }
        guard publication.contentProtectionService == nil else { return .failed("protected: never indexed") }
        let library = library
        let chunker = PublicationTextChunker(publication: publication)
        // A part that cannot be read is left out and said: the rest is searchable, and the
        // report names what is not (a damaged file stays damaged on the next run).
        var unreadable: [String] = []
        do throws(LibraryError) {
            let first = try await library.perform { store throws(LibraryError) in try store.fullTextNextItem(publicationID: entry.id) }
            for item in first..<max(first, chunker.itemCount) {
                if isCancelled() { return .cancelled }
                // Converting text is the slow part: at background priority, behind the reader's work.
                let chunks: [TextChunk]
                switch await Blocking.runInBackground({ () -> Result<[TextChunk], ContentLoadError> in
                    do throws(ContentLoadError) { return .success(try chunker.chunks(ofItem: item)) } catch { return .failure(error) }
                }) {
                case .success(let found): chunks = found
                case .failure(let error): chunks = []; unreadable.append(error.userMessage)
                }
                try await library.perform { store throws(LibraryError) in
                    try store.addFullText(publicationID: entry.id, item: item, chunks: chunks)
                }
            }
            try await library.perform { store throws(LibraryError) in try store.completeFullText(publicationID: entry.id) }
        } catch {
            return .failed(error.userMessage)
        }
        if let first = unreadable.first {
            let others = unreadable.count > 1 ? " and \(unreadable.count - 1) more part\(unreadable.count == 2 ? "" : "s")" : ""
            return .failed("indexed without what cannot be read: \(first)\(others)")
        }
        return .indexed
    }
}
