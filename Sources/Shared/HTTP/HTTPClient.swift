import Dispatch
import FoundationEssentials

/// An HTTP request.
public struct HTTPRequest: Sendable {
    public var url: String
    public var method: String
    public var headers: [String: String]
    public var body: Data?
    /// Seconds allowed for the whole exchange (0: no limit but the stall timeout).
    public var timeout: Double
    /// Seconds allowed to connect.
    public var connectTimeout: Double
    /// Seconds the exchange may go without a byte arriving, waiting for the answer included.
    public var stallTimeout: Double
    /// Largest body accepted in memory.
    public var maxBodySize: Int
    /// Whether the client follows redirects; false returns the 3xx answer itself (with its
    /// `location`), for callers that decide hop by hop what each origin is sent.
    public var followRedirects = true
    /// Whether connecting to a loopback, private, link-local or unique-local address
    /// (``IPAddress/isLocal``) is refused: checked on the addresses the name resolved to, as
    /// the connection is made (``HTTPError/refusedAddress(_:)``). For URLs that come from a
    /// document rather than from the person, which could otherwise reach this machine's or
    /// its network's private services.
    public var refusesLocalAddresses = false

    public init(url: String, method: String = "GET", headers: [String: String] = [:], body: Data? = nil,
                timeout: Double = 30, connectTimeout: Double = HTTPRequest.defaultConnectTimeout,
                stallTimeout: Double = HTTPRequest.defaultStallTimeout, maxBodySize: Int = 64 << 20) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.maxBodySize = maxBodySize
    }

    /// A few seconds: a host that does not accept a connection by then is taken as down.
    public static let defaultConnectTimeout = 5.0
    /// A server that accepted the connection but sends nothing for this long is taken as down.
    public static let defaultStallTimeout = 10.0
}

/// An HTTP response, whatever its status.
public struct HTTPResponse: Sendable {
    /// The URL that answered, after redirects.
    public var url: String
    public var statusCode: Int
    /// Header values by lower-cased name.
    public var headers: [String: String]
    public var body: Data

    public init(url: String, statusCode: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(statusCode) }

    /// The `Content-Type`.
    public var mediaType: MediaType? { headers["content-type"].flatMap(MediaType.init) }

    /// The `Content-Length`.
    public var contentLength: UInt64? { headers["content-length"].flatMap { UInt64($0.trimmed) } }
}

/// Why an HTTP exchange failed before any response (a response with an error status is not
/// an `HTTPError`).
public enum HTTPError: Error, Sendable, CustomStringConvertible {
    case timedOut
    /// The host could not be reached (offline, DNS, refused connection).
    case unreachable(String)
    case cancelled
    case tooLarge(Int)
    /// The host resolved only to addresses ``HTTPRequest/refusesLocalAddresses`` refuses.
    case refusedAddress(String)
    case other(String)

    public var description: String {
        switch self {
        case .timedOut: "the server did not answer in time"
        case .unreachable(let reason): "the server cannot be reached (\(reason))"
        case .cancelled: "cancelled"
        case .tooLarge(let limit): "the response is larger than \(limit) bytes"
        case .refusedAddress(let addresses): "not connecting to \(addresses): a loopback, private or link-local address"
        case .other(let reason): reason
        }
    }
}

/// How Lectern talks HTTP. The default is ``CurlHTTPClient``; tests may substitute their own.
public protocol HTTPClient: Sendable {
    /// Performs the request synchronously. Never call it from the interface thread.
    func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPError>

    /// Streams the body of a GET to `path` (created mode 0600), reporting progress, and
    /// stopping when `isCancelled` returns true. The returned response has an empty body.
    func download(_ request: HTTPRequest, to path: String,
                  onProgress: @escaping @Sendable (_ received: Int64, _ expected: Int64?) -> Void,
                  isCancelled: @escaping @Sendable () -> Bool) -> Result<HTTPResponse, HTTPError>
}

extension HTTPClient {
    /// Performs the request on a background thread, so that awaiting it never blocks the
    /// cooperative thread pool.
    public func send(_ request: HTTPRequest) async -> Result<HTTPResponse, HTTPError> {
        await Blocking.run { self.send(request) }
    }
}
