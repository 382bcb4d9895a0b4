import FoundationEssentials
import Shared

/// An HTTP client that never leaves the process: it answers the URLs it was given with their
/// fixed body and every other request with "unreachable", as an offline machine would.
struct OfflineHTTPClient: HTTPClient {
    /// Response bodies by exact URL.
    let bodies: [String: Data]

    init(_ bodies: [String: Data] = [:]) {
        self.bodies = bodies
    }

    func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPError> {
        guard let body = bodies[request.url] else { return .failure(.unreachable("offline (fuzzing harness)")) }
        guard body.count <= request.maxBodySize else { return .failure(.tooLarge(request.maxBodySize)) }
        return .success(HTTPResponse(url: request.url, statusCode: 200,
                                     headers: ["content-type": "application/json", "content-length": "\(body.count)"],
                                     body: body))
    }

    func download(_ request: HTTPRequest, to path: String,
                  onProgress: @escaping @Sendable (_ received: Int64, _ expected: Int64?) -> Void,
                  isCancelled: @escaping @Sendable () -> Bool) -> Result<HTTPResponse, HTTPError> {
        .failure(.unreachable("offline (fuzzing harness)"))
    }
}
