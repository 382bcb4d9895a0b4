import Hummingbird
import Shared
import Synchronization

/// Answers every request: the `Host` check, then the route (secret, publication, safe path),
/// then the manifest, the reader page, the rights routes or a resource.
struct PublicationResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let secret: ServerSecret
    let publications: [String: ServedPublication]
    let indexes: [String: PublicationIndex]
    let limit: ConcurrencyLimit
    /// Where the server listens, known only once it does.
    let listening: ListeningState

    init(secret: ServerSecret, publications: [ServedPublication], limit: ConcurrencyLimit) {
        self.secret = secret
        self.publications = Dictionary(publications.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        indexes = self.publications.mapValues { PublicationIndex(manifest: $0.publication.manifest) }
        self.limit = limit
        listening = ListeningState()
    }

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        guard listening.accepts(host: request.head.authority) else {
            return ServerResponse.text(.misdirectedRequest, "This server answers only requests addressed to its loopback address\n")
        }
        guard let route = ServerRoute(rawPath: request.uri.path, secret: secret, knownIDs: Set(publications.keys)) else {
            return ServerResponse.notFound
        }
        switch route {
        case .copyRights(let id), .printRights(let id), .contentProtection(let id):
            guard request.method == .get else { return methodNotAllowed("GET") }
            let routes = RightsRoutes(served: publications[id]!)
            let query = RightsRoutes.parameters(of: request.uri.query)
            // The rights calls may touch the database that keeps the counters: take a place.
            return await limit.run {
                switch route {
                case .copyRights: routes.copy(query: query)
                case .printRights: routes.print(query: query)
                default: routes.status()
                }
            }
        case .manifest(let id):
            guard request.method == .get || request.method == .head else { return methodNotAllowed("GET, HEAD") }
            let selfURL = listening.origin + "/\(secret)/pub/\(id)/manifest.json"
            let document = ManifestDocument.json(of: publications[id]!.publication, selfURL: selfURL)
            return ServerResponse.json(.ok, document, type: ManifestDocument.mediaType)
        case .readerPage(let id):
            guard request.method == .get || request.method == .head else { return methodNotAllowed("GET, HEAD") }
            return ReaderPage.response(title: publications[id]!.publication.metadata.title ?? "")
        case .readerAsset(_, let name):
            guard request.method == .get || request.method == .head else { return methodNotAllowed("GET, HEAD") }
            return ReaderAssets.response(named: name) ?? ServerResponse.notFound
        case .resource(let id, let path):
            guard request.method == .get || request.method == .head else { return methodNotAllowed("GET, HEAD") }
            guard let link = indexes[id]?.link(forPath: path) else { return ServerResponse.notFound }
            let served = publications[id]!
            return await limit.run {
                ResourceResponse(resource: served.publication.get(link), request: request, lastModified: served.lastModified,
                                 limit: limit).make()
            }
        }
    }

    private func methodNotAllowed(_ allowed: String) -> Response {
        ServerResponse.text(.methodNotAllowed, "Method Not Allowed\n", headers: [.allow: allowed])
    }
}

/// The `Host` check and origin of a listening server: set once the port is known; until then
/// every request is refused.
final class ListeningState: Sendable {
    private let state = Mutex<(check: HostCheck, origin: String)?>(nil)

    func set(host: String, port: Int, origin: String) {
        state.withLock { $0 = (HostCheck(host: host, port: port), origin) }
    }

    func accepts(host: String?) -> Bool {
        state.withLock { $0?.check.accepts(host) } ?? false
    }

    /// `http://HOST:PORT`, for the manifest's self link.
    var origin: String { state.withLock { $0?.origin } ?? "" }
}
