import Shared

/// A header to send to one host only, from `lectern serve --header 'HOST[:PORT]: Name: Value'`
/// (e.g. `books.example: Authorization: Bearer TOKEN`).
public struct HostHeader: Sendable, Equatable {
    /// The host, lowercased, with its port when one was given (then only that port matches).
    public let authority: String
    public let name: String
    public let value: String

    public init(authority: String, name: String, value: String) {
        self.authority = authority.lowercased()
        self.name = name
        self.value = value
    }

    /// Reads `HOST[:PORT]: Name: Value`; nil when a part is missing or holds a line break.
    public init?(parsing text: String) {
        guard !text.contains("\r"), !text.contains("\n") else { return nil }
        let parts = text.split(separator: ": ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let header = parts[1].split(separator: ":", maxSplits: 1)
        let authority = parts[0].trimmingSpaces, name = header.first?.trimmingSpaces ?? ""
        guard header.count == 2, !authority.isEmpty, !authority.contains("/"), !authority.contains("@"), !name.isEmpty,
              !name.contains(" ") else { return nil }
        self.init(authority: String(authority), name: String(name), value: String(header[1].trimmingSpaces))
    }

    /// Whether a request to `url` goes to this header's host (and port, when given).
    func applies(to url: String) -> Bool {
        RemoteAuthority.matches(authority, url: url)
    }
}

/// The HTTP client of `lectern serve`'s remote resources, whose URLs come from manifests,
/// not from the person. It follows redirects itself, one hop at a time, so that on each hop:
/// - each ``HostHeader`` goes to its host only: a redirect that leaves the host does not carry
///   it (libcurl would carry every header but `Authorization` and `Cookie`);
/// - a host resolving to a loopback, private, link-local or unique-local address is refused
///   (``HTTPRequest/refusesLocalAddresses``, checked on the resolved addresses as libcurl
///   connects), unless it is one of ``allowedHosts`` (`--allow-host`): a web publication
///   must not make the server fetch `http://127.0.0.1:8080/admin` and hand it to the page.
public struct InjectedHeadersHTTPClient: HTTPClient {
    public let base: any HTTPClient
    public let headers: [HostHeader]
    /// The hosts the person allowed to be on a local address (their own server, a NAS).
    public let allowedHosts: [AllowedHost]

    /// The most redirects followed for one request.
    static let maximumRedirects = 10

    public init(base: any HTTPClient, headers: [HostHeader], allowedHosts: [AllowedHost] = []) {
        self.base = base
        self.headers = headers
        self.allowedHosts = allowedHosts
    }

    /// `request` as sent to its own URL: with the headers for that host, local addresses
    /// refused unless the host is allowed, and redirects left to ``hops(_:perform:)``.
    func prepared(_ request: HTTPRequest) -> HTTPRequest {
        var request = request
        for header in headers where header.applies(to: request.url) {
            request.headers[header.name] = header.value
        }
        if !allowedHosts.contains(where: { $0.matches(request.url) }) { request.refusesLocalAddresses = true }
        request.followRedirects = false
        return request
    }

    /// Performs `request`, then each redirect as a request of its own (prepared anew for its
    /// URL) while the caller wants redirects followed.
    func hops(_ request: HTTPRequest, perform: (HTTPRequest) -> Result<HTTPResponse, HTTPError>) -> Result<HTTPResponse, HTTPError> {
        var current = request
        for _ in 0...Self.maximumRedirects {
            let result = perform(prepared(current))
            guard request.followRedirects, case .success(let response) = result,
                  [301, 302, 303, 307, 308].contains(response.statusCode), let location = response.headers["location"]
            else { return result }
            let next = Href.resolve(location.trimmed, against: current.url)
            guard Href.isHTTP(next) else { return .failure(.other("the server redirected to an address that is not http(s)")) }
            if current.method != "HEAD",
               response.statusCode == 303 || (response.statusCode != 307 && response.statusCode != 308 && current.method == "POST") {
                current.method = "GET"
                current.body = nil
            }
            current.url = next
        }
        return .failure(.other("too many redirects"))
    }

    public func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPError> {
        hops(request) { base.send($0) }
    }

    public func download(_ request: HTTPRequest, to path: String,
                         onProgress: @escaping @Sendable (Int64, Int64?) -> Void,
                         isCancelled: @escaping @Sendable () -> Bool) -> Result<HTTPResponse, HTTPError> {
        hops(request) { base.download($0, to: path, onProgress: onProgress, isCancelled: isCancelled) }
    }
}
