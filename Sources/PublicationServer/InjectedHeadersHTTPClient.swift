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
        guard let scheme = Href.scheme(of: url)?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        let rest = url.dropFirst(scheme.count + 3)
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var target = rest[..<end].lowercased()
        if let at = target.lastIndex(of: "@") { target = String(target[target.index(after: at)...]) }
        let (host, port) = Self.split(target)
        let (wantedHost, wantedPort) = Self.split(authority)
        guard host == wantedHost else { return false }
        guard let wantedPort else { return true }
        return (port ?? (scheme == "https" ? 443 : 80)) == wantedPort
    }

    /// `host` and port of `host[:port]` (`[v6]:port` too).
    static func split(_ authority: String) -> (host: String, port: Int?) {
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]) else {
            return (authority, nil)
        }
        let host = authority[..<colon]
        // A bare IPv6 address has colons of its own: its port needs brackets.
        if host.contains(":"), !(host.hasPrefix("[") && host.hasSuffix("]")) { return (authority, nil) }
        return (String(host), port)
    }
}

/// An HTTP client that adds each ``HostHeader`` to the requests for its host, and to no
/// other: a redirect to another origin is followed by the underlying client (libcurl), which
/// drops an `Authorization` it was given for the first host (curl ≥ 7.58; port and scheme
/// too since 7.83), so a token never travels to a host it was not meant for. (Other header
/// names, which libcurl keeps on redirects, are for what is not secret: put secrets in
/// `Authorization` or `Cookie`.)
public struct InjectedHeadersHTTPClient: HTTPClient {
    public let base: any HTTPClient
    public let headers: [HostHeader]

    public init(base: any HTTPClient, headers: [HostHeader]) {
        self.base = base
        self.headers = headers
    }

    func injected(_ request: HTTPRequest) -> HTTPRequest {
        var request = request
        for header in headers where header.applies(to: request.url) {
            request.headers[header.name] = header.value
        }
        return request
    }

    public func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPError> {
        base.send(injected(request))
    }

    public func download(_ request: HTTPRequest, to path: String,
                         onProgress: @escaping @Sendable (Int64, Int64?) -> Void,
                         isCancelled: @escaping @Sendable () -> Bool) -> Result<HTTPResponse, HTTPError> {
        base.download(injected(request), to: path, onProgress: onProgress, isCancelled: isCancelled)
    }
}
