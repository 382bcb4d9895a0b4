import FoundationEssentials
import Shared

/// Adds the books of a calibre library to Lectern's library by reference: each book's best
/// file (``CalibreLibrary``) is imported where it is — never copied — and its entry takes
/// calibre's title and authors, which win over the file's own. Importing again changes
/// nothing that has not changed in calibre.
public struct CalibreImporter: Sendable {
    public let importer: LibraryImporter

    public init(importer: LibraryImporter) {
        self.importer = importer
    }

    /// What happened to one calibre book.
    public struct Outcome: Sendable {
        public let book: CalibreBook
        /// The file's import; nil when the book has no file Lectern reads.
        public let imported: LibraryImporter.Outcome?

        /// Whether the library's entry was already this book with this metadata.
        public var unchanged: Bool {
            guard let previous = imported?.previous, let entry = imported?.entry else { return false }
            return (previous.title, previous.author, previous.format) == (entry.title, entry.author, entry.format)
                && LibraryStore.CalibreDetails(of: previous) == LibraryStore.CalibreDetails(of: entry)
        }
    }

    public func importLibrary(_ library: CalibreLibrary) async throws(LibraryError) -> [Outcome] {
        let books = try await Blocking.run { () -> Result<[CalibreBook], LibraryError> in
            do throws(LibraryError) { return .success(try library.books()) } catch { return .failure(error) }
        }.get()
        var outcomes: [Outcome] = []
        for book in books {
            guard let file = book.file else {
                outcomes.append(Outcome(book: book, imported: nil))
                continue
            }
            var outcome = await importer.importFile(file)
            if var entry = outcome.entry {
                let author = book.authors.joined(separator: ", ")
                if !book.title.isEmpty { entry.title = book.title }
                if !author.isEmpty {
                    entry.author = author
                    entry.authorSortKey = book.authorSort.isEmpty ? LibraryStore.authorSortKey(book.authors[0]) : book.authorSort.lowercased()
                }
                let calibre = entry
                let details = LibraryStore.CalibreDetails(series: book.series, seriesIndex: book.seriesIndex, tags: book.tags, cover: book.cover)
                do throws(LibraryError) {
                    let stored = try await importer.library.perform { store throws(LibraryError) in
                        let added = try store.add(calibre)
                        return try store.setCalibreDetails(id: added.id, details) ?? added
                    }
                    outcome = LibraryImporter.Outcome(path: outcome.path, entry: stored, error: nil,
                                                      knownCopy: outcome.knownCopy, previous: outcome.previous)
                } catch {
                    outcome = LibraryImporter.Outcome(path: outcome.path, entry: nil, error: error.userMessage)
                }
            }
            outcomes.append(Outcome(book: book, imported: outcome))
        }
        return outcomes
    }
}
