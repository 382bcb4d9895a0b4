import Bookshelf
import FoundationEssentials
import ProgressSync
import ReaderUI
import Shared

/// The reader's progress sync (#32), built on the `ProgressSync` service of the library: the
/// composition root hands it to the interface as two closures.
enum SyncCommandReaderHooks {
    static let log = Diagnostics.logger("lectern.sync")

    /// Pull and push for the reader, on `store`'s sync account; nothing is asked of the server
    /// when no account is set.
    static func make(store: LibraryStore) -> ReaderProgressSync {
        let service = ProgressSyncService(store: store)
        return ReaderProgressSync(pull: { path, since in
            guard let (publication, document) = await open(path, service) else { return nil }
            defer { publication.close() }
            let outcome: PullOutcome
            do throws(ProgressSyncError) {
                outcome = try await service.pull(document: document)
            } catch {
                log.info("progress sync: pulling the place of \(path) failed: \(error.message)")
                return nil
            }
            // Our own place, none, or one older than this library's last reading: nothing to offer.
            guard case .remote(let place) = outcome else { return nil }
            if let since, let stamp = place.timestamp, Double(stamp) <= since.timeIntervalSince1970 { return nil }
            let incoming = await Blocking.run { SyncPositions.incoming(place, in: publication) }
            if case .percentage(let why) = incoming.how { log.info("progress sync: \(path): placed by its percentage: \(why)") }
            return ReaderProgressSync.Offer(device: place.device, percentage: place.percentage, locator: incoming.locator)
        }, push: { path, locator, progress in
            guard let (publication, document) = await open(path, service) else { return }
            defer { publication.close() }
            let outgoing = await Blocking.run { SyncPositions.outgoing(locator, progress: progress, in: publication) }
            do throws(ProgressSyncError) {
                if case .queued(let reason) = try await service.push(document: document, progress: outgoing.progress,
                                                                     percentage: outgoing.percentage) {
                    log.info("progress sync: the place of \(path) waits: \(reason)")
                }
            } catch {
                log.info("progress sync: pushing the place of \(path) failed: \(error.message)")
            }
        })
    }

    /// The book opened on its own (never prompting) and its document id, when an account is set.
    private static func open(_ path: String, _ service: ProgressSyncService) async -> (Publication, String)? {
        let ready = await Blocking.run { () -> DocumentMatching? in
            guard (try? service.account()) != nil else { return nil }
            return (try? service.matching()) ?? .binary
        }
        guard let matching = ready else { return nil }
        guard case .success(let opened) = await UIComposition.open(path, false, nil) else { return nil }
        let id = await Blocking.run { try? KOReaderDocumentID.id(ofFileAt: path, matching: matching) }
        guard let id else {
            opened.publication.close()
            return nil
        }
        return (opened.publication, id)
    }
}
