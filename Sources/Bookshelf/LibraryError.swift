import Shared

/// Why the library database failed.
public struct LibraryError: Error, Sendable, UserMessageConvertible {
    public let message: String
    public var userMessage: String { "library database: \(message)" }
}
