import Hummingbird
import Shared

/// The web-service routes of the Readium Content Protection proposal as HTTP: Shared's
/// ``RightsWebService`` answers them from the publication's own `UserRights` (so they consume
/// the same persistent counters as the terminal reader: for LCP, the license's counters in
/// the library database, shared atomically between processes), and this turns its answers
/// into responses — 200 with the document, 403 and 400 with a problem document.
struct RightsRoutes {
    let served: ServedPublication

    private var service: RightsWebService { RightsWebService(publication: served.publication) }

    func status() async -> Response { Self.response(await service.status()) }

    func copy(query: [String: String]) async -> Response { Self.response(await service.copy(query: query)) }

    func print(query: [String: String]) async -> Response { Self.response(await service.print(query: query)) }

    private static func response(_ answer: RightsWebService.Answer) -> Response {
        switch answer {
        case .document(let document, let type):
            ServerResponse.json(.ok, document, type: type)
        case .refused(let title, let detail, let rights):
            ServerResponse.problem(.forbidden, title: title, detail: detail, extra: JSONObject(["rights": .object(rights)]))
        case .invalid(let title, let detail):
            ServerResponse.problem(.badRequest, title: title, detail: detail)
        }
    }

    /// The percent-decoded parameters of a query string (`+` is a space, as browsers send forms).
    static func parameters(of query: String?) -> [String: String] { RightsWebService.parameters(of: query) }
}
