import Annotations
import Bookshelf
import FoundationEssentials
import LCP
import LCPSQLite
import Shared

/// A book opened by an annotation command: the publication, its library entry (the book is
/// added to the library when it is not there yet, as `lectern import` would) and the sealing
/// of its quotes.
struct AnnotationCommandBook {
    let path: String
    let publication: Publication
    let store: LibraryStore
    let entry: LibraryEntry
    /// Nil for an unprotected book; for a locked LCP book too (its quotes stay sealed).
    let sealing: QuoteSealing?

    /// Opens `path` with the command's credentials (a passphrase or password given once is
    /// remembered as the other commands remember it). Exits with ``ExitStatus/cannotOpen`` when
    /// it cannot be opened, with ``ExitStatus/restricted`` when `unlocked` is asked for and the
    /// protection refuses.
    static func open(_ path: String, credentials: CredentialsOption, unlocked: Bool) async throws -> AnnotationCommandBook {
        let (store, problem) = UIComposition.store()
        guard let store else {
            Output.error(problem ?? "the library cannot be opened")
            throw ExitStatus.cannotOpen
        }
        let absolute = LibraryImporter.absolutePath(path)
        let opened = try await PublicationLoader().openForCommand(absolute, credentials: credentials)
        let publication = opened.publication
        if unlocked {
            do {
                try publication.requireUnlocked(path: path)
            } catch {
                publication.close()
                throw error
            }
        }
        guard let entry = await libraryEntry(absolute, publication: publication, store: store) else {
            publication.close()
            throw ExitStatus.cannotOpen
        }
        return AnnotationCommandBook(path: path, publication: publication, store: store, entry: entry,
                                     sealing: sealing(for: publication, protection: entry.protection))
    }

    /// The library's entry of the book at `absolute`, added when missing; nil (said) when the
    /// library cannot hold it.
    private static func libraryEntry(_ absolute: String, publication: Publication, store: LibraryStore) async -> LibraryEntry? {
        let identifier = publication.metadata.identifier
        let identity = await Blocking.run { ContentIdentity.of(path: absolute, identifier: identifier) }
        do throws(LibraryError) {
            if let known = try store.entry(identity: identity) { return known }
        } catch {
            Output.error("\(absolute): \(error.userMessage)")
            return nil
        }
        let outcome = await LibraryImporter(store: store, open: UIComposition.open).importFile(absolute)
        guard let entry = outcome.entry else {
            Output.error("\(absolute): not added to the library: \(outcome.error ?? "unknown reason")")
            return nil
        }
        return entry
    }

    /// How the book's quotes are sealed: an LCP book's with a key derived from its user key
    /// (the one the license repository remembers and that opens this license; none while it is
    /// locked), a password book's with the remembered passwords' key file.
    static func sealing(for publication: Publication, protection: ProtectionMark) -> QuoteSealing? {
        QuoteSealing.forBook(publication, protection: protection, lcp: try? LibraryDatabase.process.get().lcp)
    }

    /// The book's annotations, tombstones left out.
    func annotations() throws(LibraryError) -> [Annotation] {
        try store.annotations(publicationID: entry.id, sealing: sealing)
    }
}
