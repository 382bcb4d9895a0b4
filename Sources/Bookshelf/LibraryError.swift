import Shared

/// Why the library database failed.
public struct LibraryError: Error, Sendable, UserMessageConvertible {
    public let message: String
    public var userMessage: String { "library database: \(message)" }

    /// A failure described by `message` (the composition root reports another store's
    /// failure to open the shared file as the library's).
    public init(message: String) {
        self.message = message
    }
}
