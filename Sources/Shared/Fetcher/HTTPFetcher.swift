import FoundationEssentials
import Synchronization

/// Serves resources from HTTP(S) URLs: the length from a HEAD request, ranges with `Range`
/// requests, the `Content-Type` into the link. `links` is empty: a server cannot be listed.
///
/// A server that ignores `Range` would send the whole body for every range asked (a reader
/// streaming a large resource by chunks asks many): its body is then downloaded once, to
/// disk (``RemoteBodyCache``), and the ranges are read from there.
public final class HTTPFetcher: Fetcher {
    public let client: any HTTPClient
    /// Relative hrefs are resolved against this URL, when given.
    public let baseURL: String?
    /// Seconds allowed for each request.
    public let timeout: Double
    /// The whole bodies of the resources whose server ignores `Range`.
    public let bodies: RemoteBodyCache

    public init(client: any HTTPClient = CurlHTTPClient(), baseURL: String? = nil, timeout: Double = 30,
                bodies: RemoteBodyCache = RemoteBodyCache()) {
        self.client = client
        self.baseURL = baseURL
        self.timeout = timeout
        self.bodies = bodies
    }

    public var links: [Link] { [] }

    public func get(_ link: Link, parameters: [String: String]) -> any Resource {
        var url = link.templated ? URITemplate(link.href).expand(parameters) : link.href
        if !Href.isAbsoluteURL(url), let baseURL { url = Href.resolve(url, against: baseURL) }
        guard Href.isHTTP(url) else { return FailureResource(link: link, error: .notFound(link.href)) }
        if !link.templated, !parameters.isEmpty {
            let query = parameters.keys.sorted().map {
                "\(URITemplate.percentEncode($0, allowReserved: false))=\(URITemplate.percentEncode(parameters[$0]!, allowReserved: false))"
            }.joined(separator: "&")
            url += (url.contains("?") ? "&" : "?") + query
        }
        return HTTPResource(link: link, url: url, client: client, timeout: timeout, bodies: bodies)
    }

    public func close() {}
}

/// One HTTP resource.
public final class HTTPResource: Resource {
    public let url: String
    let client: any HTTPClient
    let timeout: Double
    let bodies: RemoteBodyCache
    private let requestedLink: Link
    private let learned = Mutex<(length: UInt64?, mediaType: MediaType?, headChecked: Bool)>((nil, nil, false))
    /// The whole body, once the server proved to ignore `Range`: kept while this resource is
    /// open, whatever the cache drops.
    private let spooled = Mutex<SpooledBody?>(nil)

    /// The most a ranged answer may exceed the range by: a server that ignores `Range` is
    /// cut off there, instead of sending its whole body into memory.
    static let rangeSlack = 16 * 1024
    /// The largest body downloaded whole for a server that ignores `Range`.
    static let maxSpooledSize: UInt64 = 512 << 20

    init(link: Link, url: String, client: any HTTPClient, timeout: Double, bodies: RemoteBodyCache = RemoteBodyCache()) {
        requestedLink = link
        self.url = url
        self.client = client
        self.timeout = timeout
        self.bodies = bodies
    }

    /// The requested link, with the `Content-Type` of the server when the link had none.
    public var link: Link {
        var link = requestedLink
        if link.mediaType == nil { link.mediaType = learned.withLock { $0.mediaType } }
        return link
    }

    public var length: ResourceResult<UInt64> {
        if let known = learned.withLock({ $0.length }) { return .success(known) }
        switch client.send(HTTPRequest(url: url, method: "HEAD", timeout: timeout)) {
        case .success(let response) where response.isSuccess:
            remember(response, length: response.contentLength)
            if let length = response.contentLength { return .success(length) }
        case .success(let response) where response.statusCode == 405 || response.statusCode == 501:
            break // HEAD is not supported: ask with GET below.
        case .success(let response):
            return .failure(Self.error(forStatus: response.statusCode, url: url))
        case .failure(let error):
            return .failure(Self.error(error))
        }
        // No length from HEAD: a one-byte range gives the total in Content-Range (and a server
        // that ignores ranges sends everything, which gives it too).
        if case .failure(let error) = read(range: 0..<1) { return .failure(error) }
        if let known = learned.withLock({ $0.length }) { return .success(known) }
        return read(range: nil).map { UInt64($0.count) }
    }

    public func read(range: Range<UInt64>?) -> ResourceResult<Data> {
        if let body = spooled.withLock({ $0 }) ?? bodies.cached(url) { return body.read(range: range) }
        var headers: [String: String] = [:]
        var maxBodySize = 512 << 20
        if let range {
            if range.isEmpty { return .success(Data()) }
            headers["Range"] = "bytes=\(range.lowerBound)-\(range.upperBound - 1)"
            maxBodySize = Int(clamping: UInt64(range.count)) + Self.rangeSlack
        }
        switch client.send(HTTPRequest(url: url, headers: headers, timeout: timeout, maxBodySize: maxBodySize)) {
        case .failure(.tooLarge) where range != nil:
            // More than the range came: the server ignores `Range` and sends everything.
            return readWhole().flatMap { $0.read(range: range) }
        case .failure(let error):
            return .failure(Self.error(error))
        case .success(let response):
            switch response.statusCode {
            case 206:
                remember(response, length: Self.totalLength(fromContentRange: response.headers["content-range"]))
                return .success(response.body)
            case 200..<300:
                // The server ignored the range: it sent everything.
                remember(response, length: UInt64(response.body.count))
                return .success(response.body.slice(range))
            case 416:
                return .success(Data())
            default:
                return .failure(Self.error(forStatus: response.statusCode, url: url))
            }
        }
    }

    public func close() {
        spooled.withLock { $0 = nil }
    }

    /// The whole body, downloaded once for all the resources of this URL (``RemoteBodyCache``).
    private func readWhole() -> ResourceResult<SpooledBody> {
        let (client, url, timeout) = (client, url, timeout)
        let result = bodies.body(of: url) { directory in
            SpooledBody.download(url, client: client, directory: directory, maxSize: Self.maxSpooledSize,
                                 stallTimeout: max(timeout, HTTPRequest.defaultStallTimeout))
        }
        switch result {
        case .success(let body):
            spooled.withLock { $0 = body }
            learned.withLock { learned in
                learned.length = body.length
                if learned.mediaType == nil { learned.mediaType = body.mediaType }
            }
            return .success(body)
        case .failure(let error):
            return .failure(Self.error(error))
        }
    }

    private func remember(_ response: HTTPResponse, length: UInt64?) {
        learned.withLock { learned in
            if let length { learned.length = length }
            if learned.mediaType == nil { learned.mediaType = response.mediaType }
        }
    }

    /// The total length in `Content-Range: bytes a-b/total`.
    static func totalLength(fromContentRange header: String?) -> UInt64? {
        guard let header, let slash = header.lastIndex(of: "/") else { return nil }
        return UInt64(header[header.index(after: slash)...].trimmed)
    }

    static func error(forStatus status: Int, url: String) -> ResourceError {
        let failure = ResourceFailure("HTTP \(status) from \(url)")
        switch status {
        case 404, 410: return .notFound(url)
        case 401, 403: return .forbidden(failure)
        case 502, 503, 504: return .unavailable(failure)
        default: return .other(failure)
        }
    }

    static func error(_ error: HTTPError) -> ResourceError {
        switch error {
        case .timedOut, .unreachable: .unavailable(error)
        default: .other(error)
        }
    }
}
