import Annotations
import Bookshelf
import LCP
import LCPSQLite
import ReaderUI
import Shared
import Synchronization

/// The interface's annotation store (#31): each book's highlights and notes in the library
/// database, its quotes sealed when the book is protected. The sealing is decided here, where
/// the keys are, so that the interface never holds one.
enum UIAnnotations {
    static func factory(_ database: LibraryDatabase) -> AnnotationStoreFactory {
        let store = database.library, lcp = database.lcp
        return { publicationID, publication in
            // Decided on first use, off the main actor (the LCP key lookup reads the database).
            // Not opened (the bookshelf's list): the key file opens password books' quotes; an LCP
            // book's stay sealed, and nothing is written.
            let sealing = LazySealing { publication.map { UIAnnotations.sealing(for: $0, lcp: lcp) } ?? QuoteSealing.password() }
            return BookAnnotationStore(
                list: { () async throws(LibraryError) -> [Annotation] in
                    try await Blocking.attempt { () throws(LibraryError) -> [Annotation] in
                        try store.annotations(publicationID: publicationID, sealing: sealing.value)
                    }
                },
                save: { (annotation: Annotation) async throws(LibraryError) in
                    guard publication != nil else { throw LibraryError(message: "the book is not open") }
                    return try await Blocking.attempt { () throws(LibraryError) in
                        try store.saveAnnotation(annotation, publicationID: publicationID, sealing: sealing.value)
                    }
                },
                delete: { (id: String) async throws(LibraryError) in
                    try await Blocking.attempt { () throws(LibraryError) in
                        try store.deleteAnnotation(id: id, publicationID: publicationID)
                    }
                })
        }
    }

    static func sealing(for publication: Publication, lcp: LCPSQLiteStore) -> QuoteSealing? {
        QuoteSealing.forBook(publication, protection: ProtectionMark(scheme: publication.contentProtectionService?.scheme), lcp: lcp)
    }
}

/// A sealing computed once, on first use, by whichever thread asks first.
private final class LazySealing: Sendable {
    private let state: Mutex<QuoteSealing??> = Mutex(nil)
    private let make: @Sendable () -> QuoteSealing?

    init(_ make: @escaping @Sendable () -> QuoteSealing?) {
        self.make = make
    }

    var value: QuoteSealing? {
        state.withLock { cached in
            if let cached { return cached }
            let made = make()
            cached = .some(made)
            return made
        }
    }
}
