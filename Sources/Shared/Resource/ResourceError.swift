/// Why a resource could not be read. The cases mirror HTTP statuses, as in the Readium
/// Composite Fetcher proposal.
public enum ResourceError: Error, Sendable, CustomStringConvertible {
    /// 404: the resource does not exist.
    case notFound(String? = nil)
    /// 403: the resource exists but may not be read, e.g. a DRM that is not unlocked.
    case forbidden((any Error)? = nil)
    /// 503: the source cannot be reached now (offline, file system, closed archive).
    case unavailable((any Error)? = nil)
    /// 500: anything else (damaged data, decryption failure…).
    case other(any Error)

    public var description: String {
        switch self {
        case .notFound(let detail): detail.map { "not found (\($0))" } ?? "not found"
        case .forbidden(let cause): cause.map { "forbidden (\($0))" } ?? "forbidden"
        case .unavailable(let cause): cause.map { "unavailable (\($0))" } ?? "unavailable"
        case .other(let cause): "\(cause)"
        }
    }

    /// The HTTP status this error corresponds to.
    public var httpStatus: Int {
        switch self {
        case .notFound: 404
        case .forbidden: 403
        case .unavailable: 503
        case .other: 500
        }
    }
}

/// The result of a resource operation.
public typealias ResourceResult<Success> = Result<Success, ResourceError>

/// A message-only error, for failures that have no richer type.
public struct ResourceFailure: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

extension Result where Failure == ResourceError {
    /// Whether this is an ``ResourceError/unavailable(_:)`` failure, which a later attempt may
    /// not repeat: such results must not be cached.
    var isTemporaryFailure: Bool {
        if case .failure(.unavailable) = self { return true }
        return false
    }
}
