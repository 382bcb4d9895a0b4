import FoundationEssentials
import LibCurl
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The default ``HTTPClient``, on libcurl.
///
/// A host that could not be connected to, or went silent, fails the requests made to it in
/// the next moments at once (``UnresponsiveHosts``): a publication with many resources on a
/// dead server costs one timeout, not one per resource.
public struct CurlHTTPClient: HTTPClient {
    private let unresponsiveHosts: UnresponsiveHosts

    public init(unresponsiveHosts: UnresponsiveHosts = .shared) {
        self.unresponsiveHosts = unresponsiveHosts
    }

    /// Requests and their outcomes, without queries, headers or bodies (`LECTERN_LOG=debug`).
    static let log = Diagnostics.logger("lectern.http")

    public func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPError> {
        let shown = Diagnostics.redacted(request.url)
        if let failure = unresponsiveHosts.recentFailure(for: request.url) {
            Self.log.debug("\(request.method) \(shown): not sent, the host did not answer a moment ago")
            return .failure(failure)
        }
        let curlRequest = curlRequest(for: request)
        do {
            let response = try Curl.perform(curlRequest)
            unresponsiveHosts.answered(request.url)
            Self.log.debug("\(request.method) \(shown): HTTP \(response.statusCode), \(response.body.count) bytes")
            return .success(convert(response, body: Data(response.body)))
        } catch {
            let failure = convert(error)
            unresponsiveHosts.failed(request.url, with: failure)
            Self.log.debug("\(request.method) \(shown): \(failure)")
            return .failure(failure)
        }
    }

    public func download(_ request: HTTPRequest, to path: String,
                         onProgress: @escaping @Sendable (Int64, Int64?) -> Void,
                         isCancelled: @escaping @Sendable () -> Bool) -> Result<HTTPResponse, HTTPError> {
        if let failure = unresponsiveHosts.recentFailure(for: request.url) { return .failure(failure) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return .failure(.other("cannot create \(path): \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        var writeFailed = false
        var curlRequest = curlRequest(for: request)
        curlRequest.maxBodySize = Int.max
        do {
            let response = try Curl.perform(curlRequest, onData: { bytes in
                var offset = 0
                while offset < bytes.count {
                    let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                    if n <= 0 { writeFailed = true; return false }
                    offset += n
                }
                return !isCancelled()
            }, onProgress: { received, expected in
                onProgress(received, expected)
                return !isCancelled()
            })
            unresponsiveHosts.answered(request.url)
            if fsync(fd) != 0 { writeFailed = true }
            if writeFailed { return .failure(.other("cannot write \(path)")) }
            return .success(convert(response, body: Data()))
        } catch {
            if writeFailed { return .failure(.other("cannot write \(path)")) }
            let failure = convert(error)
            unresponsiveHosts.failed(request.url, with: failure)
            return .failure(failure)
        }
    }

    private func curlRequest(for request: HTTPRequest) -> CurlRequest {
        var curlRequest = CurlRequest(url: request.url, method: request.method,
                                      headers: request.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                                      body: request.body.map { [UInt8]($0) }, timeout: request.timeout,
                                      connectTimeout: request.timeout > 0 ? min(request.timeout, request.connectTimeout) : request.connectTimeout,
                                      stallTimeout: request.stallTimeout, followRedirects: request.followRedirects,
                                      maxBodySize: request.maxBodySize)
        if request.refusesLocalAddresses {
            curlRequest.connectsTo = { bytes in IPAddress(bytes: bytes).map { !$0.isLocal } ?? false }
        }
        return curlRequest
    }

    private func convert(_ response: CurlResponse, body: Data) -> HTTPResponse {
        var headers: [String: String] = [:]
        for header in response.headers where headers[header.name] == nil { headers[header.name] = header.value }
        return HTTPResponse(url: response.effectiveURL, statusCode: response.statusCode, headers: headers, body: body)
    }

    private func convert(_ error: CurlError) -> HTTPError {
        switch error {
        case .timedOut: .timedOut
        case .cannotConnect(let reason): .unreachable(reason)
        case .cancelled: .cancelled
        case .tooLarge(let limit): .tooLarge(limit)
        case .addressRefused(let addresses): .refusedAddress(addresses)
        case .failed(let reason): .other(reason)
        }
    }
}
