import ArgumentParser
import Bookshelf
import FoundationEssentials
import ProgressSync
import Shared

/// What the `lectern sync` commands share: the service on the library, the book a path
/// names, and how failures are said.
enum SyncCommandSupport {
    /// Progress sync on the process's library database.
    static func service() throws -> ProgressSyncService {
        let (store, problem) = UIComposition.store()
        guard let store else {
            Output.error(problem ?? "the library cannot be opened")
            throw ExitStatus.cannotOpen
        }
        return ProgressSyncService(store: store)
    }

    /// Says why and gives the exit status: 2 when there is nothing to sync with, else 1.
    static func fail(_ error: ProgressSyncError) -> ExitCode {
        Output.error(error.message)
        Output.flush()
        if case .notLoggedIn = error { return ExitCode(2) }
        return ExitStatus.someFailed
    }

    /// `43%` (or `43.25%`).
    static func percent(_ value: Double) -> String {
        let hundredths = Int((value * 10_000).rounded())
        return hundredths % 100 == 0 ? "\(hundredths / 100)%" : "\(hundredths / 100).\(String(hundredths % 100 + 100).dropFirst())%"
    }

    /// Sends the places waiting, saying how many went (after a login that succeeded).
    static func sayFlushed(_ service: ProgressSyncService) async {
        let (sent, waiting) = await service.flushQueue()
        if sent > 0 { Output.line("sent \(sent) place\(sent == 1 ? "" : "s") that waited") }
        if waiting > 0 { Output.line("\(waiting) place\(waiting == 1 ? "" : "s") still waiting") }
    }

    /// A book named on the command line: opened, its library entry (added when `adding` and
    /// missing), and its kosync document id.
    struct Book {
        let path: String
        let opened: PublicationLoader.Opened
        let store: LibraryStore
        let entry: LibraryEntry?
        let document: String
    }

    /// Opens `path` (never prompting: a protected book without its secret still has its
    /// reading order, and a place is not content) and finds it in the library.
    static func book(_ path: String, matching: DocumentMatching, adding: Bool) async throws -> Book {
        let absolute = LibraryImporter.absolutePath(path)
        let opened: PublicationLoader.Opened
        do {
            opened = try await PublicationLoader().open(absolute, credentials: nil)
        } catch {
            Output.error("\(path): \(error.userMessage)")
            throw ExitStatus.cannotOpen
        }
        let (store, problem) = UIComposition.store()
        guard let store else {
            Output.error(problem ?? "the library cannot be opened")
            throw ExitStatus.cannotOpen
        }
        let identifier = opened.publication.metadata.identifier
        let identity = await Blocking.run { ContentIdentity.of(path: absolute, identifier: identifier) }
        var entry: LibraryEntry?
        do {
            entry = try store.entry(identity: identity)
            if entry == nil, adding {
                entry = await LibraryImporter(store: store, open: UIComposition.open).importFile(absolute).entry
            }
        } catch {
            Output.error("the library cannot be read: \(error.userMessage)")
            throw ExitStatus.cannotOpen
        }
        let id = await Blocking.run { () -> Result<String, DocumentIDError> in
            Result { () throws(DocumentIDError) in try KOReaderDocumentID.id(ofFileAt: absolute, matching: matching) }
        }
        let document: String
        switch id {
        case .success(let value): document = value
        case .failure(let error):
            Output.error(error.message)
            throw ExitStatus.cannotOpen
        }
        return Book(path: absolute, opened: opened, store: store, entry: entry, document: document)
    }
}
