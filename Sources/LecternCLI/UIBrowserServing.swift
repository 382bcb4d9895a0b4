import FoundationEssentials
import PublicationServer
import ReaderUI
import Shared
import Synchronization

/// The reader's `o`: one in-process loopback ``PublicationServer`` per publication opened in
/// the browser, started on first use and kept while the program runs (the browser may come
/// back to it), serving with the same rights counters as the terminal reader.
///
/// The browser is given a one-time URL (``PublicationServer/oneTimeURL(id:at:)``), never the
/// reader page's: a browser's command line is readable by every local user, and the reader
/// page's secret would let them read the decrypted book.
enum UIBrowserServing {
    /// The servers of the publications served so far, by publication.
    private static let served = Mutex<[ObjectIdentifier: PublicationServer]>([:])

    static let serve: BrowserServing = { publication, href in
        let server: PublicationServer
        if let known = served.withLock({ $0[ObjectIdentifier(publication)] }) {
            server = known
        } else {
            switch await start(publication) {
            case .success(let started): server = started
            case .failure(let error): return .failure(error)
            }
        }
        guard let url = server.oneTimeURL(id: "1", at: href) else {
            return .failure(BrowserServingError("the local server is not listening"))
        }
        return .success(url)
    }

    private static func start(_ publication: Publication) async -> Result<PublicationServer, BrowserServingError> {
        let entry = ServedPublication(id: "1", publication: publication)
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
        guard await iterator.next() != nil else {
            return .failure(BrowserServingError("the local server could not listen on the loopback address"))
        }
        served.withLock { $0[ObjectIdentifier(publication)] = server }
        return .success(server)
    }
}
