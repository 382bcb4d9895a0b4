import FoundationEssentials
import PublicationServer
import ReaderUI
import Shared
import Synchronization

/// The reader's `o`: one in-process loopback ``PublicationServer`` per publication opened in
/// the browser, started on first use and kept while the program runs (the browser may come
/// back to it), serving with the same rights counters as the terminal reader.
enum UIBrowserServing {
    /// Where the publications served so far are listened for, by publication.
    private static let served = Mutex<[ObjectIdentifier: PublicationServer.Listening]>([:])

    static let serve: BrowserServing = { publication, href in
        let listening: PublicationServer.Listening
        if let known = served.withLock({ $0[ObjectIdentifier(publication)] }) {
            listening = known
        } else {
            switch await start(publication) {
            case .success(let started): listening = started
            case .failure(let error): return .failure(error)
            }
        }
        return .success(listening.readerURL(id: "1", at: href))
    }

    private static func start(_ publication: Publication) async -> Result<PublicationServer.Listening, BrowserServingError> {
        let entry = ServedPublication(id: "1", publication: publication, rightsLeft: ServeCommand.rightsLeft(of: publication))
        let server: PublicationServer
        do {
            server = try PublicationServer(publications: [entry])
        } catch {
            return .failure(BrowserServingError(error.description))
        }
        let (addresses, ready) = AsyncStream.makeStream(of: PublicationServer.Listening.self)
        // The server lives as long as the program: the task is never cancelled.
        Task.detached {
            do {
                try await server.run(handlingSignals: false) { listening in
                    ready.yield(listening)
                }
            } catch {
                ready.finish()
            }
            ready.finish()
        }
        var iterator = addresses.makeAsyncIterator()
        guard let listening = await iterator.next() else {
            return .failure(BrowserServingError("the local server could not listen on the loopback address"))
        }
        served.withLock { $0[ObjectIdentifier(publication)] = listening }
        return .success(listening)
    }
}
