/// An HTTP request performed by libcurl.
public struct CurlRequest: Sendable {
    public var url: String
    /// `GET`, `HEAD`, `POST`, `PUT`, …
    public var method: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]?
    /// Seconds allowed for the whole transfer (0 = no limit).
    public var timeout: Double
    /// Seconds allowed to connect.
    public var connectTimeout: Double
    /// Seconds the transfer may go without receiving a byte — waiting for the answer included —
    /// before it is abandoned as timed out (0 = no limit). A slow download that keeps moving
    /// is never cut; a server that accepted the connection and went silent is.
    public var stallTimeout: Double
    public var followRedirects: Bool
    /// Bodies larger than this are abandoned with ``CurlError/tooLarge``.
    public var maxBodySize: Int
    /// Decides, for each address the name resolved to (4 bytes for IPv4, 16 for IPv6), whether
    /// to connect to it; nil connects anywhere. It is asked when the socket is opened, after
    /// resolution, so a name cannot pass it and then resolve elsewhere. With a proxy it is the
    /// proxy's address that is asked about.
    public var connectsTo: (@Sendable (_ address: [UInt8]) -> Bool)?

    public init(url: String, method: String = "GET", headers: [(name: String, value: String)] = [],
                body: [UInt8]? = nil, timeout: Double = 30, connectTimeout: Double = 10, stallTimeout: Double = 0,
                followRedirects: Bool = true, maxBodySize: Int = 512 << 20) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.followRedirects = followRedirects
        self.maxBodySize = maxBodySize
    }
}

/// The answer to a ``CurlRequest``.
public struct CurlResponse: Sendable {
    public var statusCode: Int
    /// Headers of the final response (after redirects), names lower-cased.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The URL that answered, after redirects.
    public var effectiveURL: String

    /// The first header with this (case-insensitive) name.
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name == lowered }?.value
    }
}

/// Why a request could not be performed.
public enum CurlError: Error, Sendable, Equatable, CustomStringConvertible {
    case timedOut
    case cannotConnect(String)
    case cancelled
    case tooLarge(Int)
    /// Every address the host resolved to was refused by ``CurlRequest/connectsTo`` (the
    /// refused addresses, in text form).
    case addressRefused(String)
    case failed(String)

    public var description: String {
        switch self {
        case .timedOut: "the server did not answer in time"
        case .cannotConnect(let reason): "cannot connect (\(reason))"
        case .cancelled: "cancelled"
        case .tooLarge(let limit): "response larger than \(limit) bytes"
        case .addressRefused(let addresses): "refused to connect to \(addresses)"
        case .failed(let reason): reason
        }
    }
}
