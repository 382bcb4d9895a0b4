/// Why a publication could not be opened (Readium Streamer and Content Protection proposals).
public enum OpeningError: Error, Sendable, CustomStringConvertible, UserMessageConvertible {
    /// No parser recognises the format.
    case unsupportedFormat(String)
    /// The file does not exist.
    case notFound(String)
    /// The file exists but may not be read.
    case forbidden((any Error)?)
    /// The source cannot be reached now.
    case unavailable((any Error)?)
    /// The credentials are missing or wrong, and the protection cannot open the publication
    /// restricted (a password-protected ZIP hides even its metadata).
    case incorrectCredentials(String?)
    /// The publication is damaged.
    case parsingFailed(any Error)

    public var description: String { userMessage }

    public var userMessage: String {
        switch self {
        case .unsupportedFormat(let detail): "not a publication Lectern can open (\(detail))"
        case .notFound(let path): "no such file: \(path)"
        case .forbidden(let cause): "access denied" + (cause.map { " (\(Shared.userMessage(of: $0)))" } ?? "")
        case .unavailable(let cause): "cannot be read now" + (cause.map { " (\(Shared.userMessage(of: $0)))" } ?? "")
        case .incorrectCredentials(let detail): detail ?? "incorrect or missing password"
        case .parsingFailed(let cause): "the publication is damaged: \(Shared.userMessage(of: cause))"
        }
    }
}

/// An error that has a one-line message for people, distinct from its developer description.
public protocol UserMessageConvertible {
    var userMessage: String { get }
}

/// The message for a person: the error's ``UserMessageConvertible/userMessage`` when it has
/// one, else its description.
public func userMessage(of error: any Error) -> String {
    if let convertible = error as? UserMessageConvertible { return convertible.userMessage }
    return String(describing: error)
}
