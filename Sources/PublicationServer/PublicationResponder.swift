import Hummingbird
import Shared
import Synchronization

/// Answers every request of one publication's origin: the `Host` check, then the route
/// (secret, publication, safe path), then the manifest, the reader page, the rights routes
/// (for the reader page only) or a resource.
struct PublicationResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let secret: ServerSecret
    let served: ServedPublication
    let index: PublicationIndex
    let limit: ConcurrencyLimit
    /// Where the server listens, known only once it does.
    let listening: ListeningState
    /// The capabilities handed to the reader pages, which the rights routes require.
    let guardian: RightsGuard
    /// The codes that open the reader page once (``OneTimeCodes``).
    let openingCodes: OneTimeCodes

    var id: String { served.id }

    init(secret: ServerSecret, served: ServedPublication, limit: ConcurrencyLimit) {
        self.secret = secret
        self.served = served
        index = PublicationIndex(manifest: served.publication.manifest)
        self.limit = limit
        listening = ListeningState()
        guardian = RightsGuard()
        openingCodes = OneTimeCodes()
    }

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        if let refusal = HostCheck.refusal(ofDuplicateHostIn: request.headers) { return refusal }
        guard listening.accepts(host: request.head.authority) else {
            return ServerResponse.text(.misdirectedRequest, "This server answers only requests addressed to its loopback address\n")
        }
        if request.uri.path.hasPrefix(Self.openingPrefix) {
            return opening(code: request.uri.path.dropFirst(Self.openingPrefix.count))
        }
        guard let route = ServerRoute(rawPath: request.uri.path, secret: secret, knownIDs: [served.id]) else {
            return ServerResponse.notFound
        }
        switch route {
        case .copyRights, .printRights:
            guard request.method == .get else { return methodNotAllowed("GET") }
            if let refusal = guardian.refusal(of: request) { return refusal }
            let routes = RightsRoutes(served: served)
            let query = RightsRoutes.parameters(of: request.uri.query)
            // The rights calls may touch the database that keeps the counters: take a place.
            // The rights leave the cooperative pool themselves (an LCP right is spent in a
            // SQLite transaction on a Dispatch thread).
            return await limit.run {
                if case .copyRights = route { await routes.copy(query: query) } else { await routes.print(query: query) }
            }
        case .contentProtection:
            guard request.method == .get else { return methodNotAllowed("GET") }
            let routes = RightsRoutes(served: served)
            return await limit.run { await routes.status() }
        case .manifest(let id):
            guard request.method == .get || request.method == .head else { return methodNotAllowed("GET, HEAD") }
            let selfURL = listening.origin + "/\(secret)/pub/\(id)/manifest.json"
            let document = ManifestDocument.json(of: served.publication, selfURL: selfURL)
            return ServerResponse.json(.ok, document, type: ManifestDocument.mediaType)
        case .readerPage:
            guard request.method == .get || request.method == .head else { return methodNotAllowed("GET, HEAD") }
            return ReaderPage.response(title: served.publication.metadata.title ?? "", capability: guardian.mint())
        case .readerAsset(_, let name):
            guard request.method == .get || request.method == .head else { return methodNotAllowed("GET, HEAD") }
            return ReaderAssets.response(named: name) ?? ServerResponse.notFound
        case .resource(_, let path):
            guard request.method == .get || request.method == .head else { return methodNotAllowed("GET, HEAD") }
            guard let link = index.link(forPath: path) else { return ServerResponse.notFound }
            let served = served
            return await limit.run {
                await ResourceResponse(resource: served.publication.get(link), request: request, lastModified: served.lastModified,
                                       limit: limit).make()
            }
        }
    }

    /// `/~lectern/open/CODE`: a one-time code for the reader page (``OneTimeCodes``).
    static let openingPrefix = "/~lectern/open/"

    /// The reader page for a code not yet used (a redirect: the browser keeps the URL's
    /// fragment, the chapter to open), else the 404 of every unknown path.
    private func opening(code: Substring) -> Response {
        guard openingCodes.redeem(code) else { return ServerResponse.notFound }
        var headers = ServerResponse.commonHeaders
        headers[.location] = listening.origin + "/\(secret)/pub/\(served.id)/"
        headers[.cacheControl] = "no-store"
        return Response(status: .seeOther, headers: headers)
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
