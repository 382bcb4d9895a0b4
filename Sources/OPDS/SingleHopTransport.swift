import FoundationEssentials
import LibCurl
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP exchange that does not follow redirects: the 3xx comes back with its `location`,
/// so that ``CatalogSession`` decides, hop by hop, whether the next host may see credentials.
/// (libcurl's own redirect handling decides by host, and its rules changed between versions.)
struct SingleHopTransport: Sendable {
    /// Sends `request` once; with `path`, a successful body is streamed to that file (mode 0600).
    func send(_ request: HTTPRequest, to path: String? = nil,
              onProgress: (@Sendable (Int64, Int64?) -> Void)? = nil,
              isCancelled: @escaping @Sendable () -> Bool = { false }) -> Result<HTTPResponse, HTTPError> {
        var curlRequest = CurlRequest(
            url: request.url, method: request.method,
            headers: request.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            body: request.body.map { [UInt8]($0) }, timeout: request.timeout,
            connectTimeout: request.timeout > 0 ? min(request.timeout, request.connectTimeout) : request.connectTimeout,
            stallTimeout: request.stallTimeout, followRedirects: false, maxBodySize: request.maxBodySize)
        var fd: Int32 = -1
        if let path {
            fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return .failure(.other("cannot create \(path): \(String(cString: strerror(errno)))")) }
            curlRequest.maxBodySize = Int.max
        }
        defer { if fd >= 0 { close(fd) } }
        var writeFailed = false
        do {
            let response = try Curl.perform(
                curlRequest,
                onData: fd < 0 ? nil : { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                        if written <= 0 { writeFailed = true; return false }
                        offset += written
                    }
                    return !isCancelled()
                },
                onProgress: { received, expected in
                    onProgress?(received, expected)
                    return !isCancelled()
                })
            if fd >= 0, fsync(fd) != 0 || writeFailed { return .failure(.other("cannot write \(path ?? "")")) }
            var headers: [String: String] = [:]
            for header in response.headers where headers[header.name] == nil { headers[header.name] = header.value }
            return .success(HTTPResponse(url: response.effectiveURL.isEmpty ? request.url : response.effectiveURL,
                                         statusCode: response.statusCode, headers: headers, body: Data(response.body)))
        } catch {
            if writeFailed { return .failure(.other("cannot write \(path ?? "")")) }
            let failure: HTTPError = switch error {
            case .timedOut: .timedOut
            case .cannotConnect(let reason): .unreachable(reason)
            case .cancelled: .cancelled
            case .tooLarge(let limit): .tooLarge(limit)
            case .failed(let reason): .other(reason)
            }
            return .failure(failure)
        }
    }
}

/// The origin of a URL (scheme, host and port, lower-cased, default ports made explicit):
/// credentials go only to the origin of the catalog they were given for.
public enum CatalogOrigin {
    public static func of(_ url: String) -> String? {
        guard let scheme = Href.scheme(of: url)?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        let rest = url.dropFirst(scheme.count + 1)
        guard rest.hasPrefix("//") else { return nil }
        var authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // User information (user:password@) is not part of the origin.
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = String(authority).lowercased()
        var port = scheme == "https" ? "443" : "80"
        if let colon = host.lastIndex(of: ":"), !host[colon...].contains("]") {
            let given = String(host[host.index(after: colon)...])
            if !given.isEmpty { port = given }
            host = String(host[..<colon])
        }
        guard !host.isEmpty else { return nil }
        return "\(scheme)://\(host):\(port)"
    }
}
