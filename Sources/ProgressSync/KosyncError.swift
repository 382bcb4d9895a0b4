import Shared

/// Why a kosync exchange failed, by what the caller does about it: ask for other credentials,
/// choose another name, retry later (the place is queued), or report the server.
public enum KosyncError: Error, Sendable {
    /// The server refused the user name and key (401): a wrong password, or no such user.
    case unauthorized
    /// Registration refused: the user name is taken (402, code 2002).
    case usernameTaken
    /// The server refused the request itself (a 4xx other than those above), with its code
    /// and message when it gave them.
    case refused(status: Int, code: Int?, message: String?)
    /// The server failed (5xx) or answered something that is not the protocol's JSON.
    case serverFailure(status: Int, message: String?)
    /// The server could not be reached, or did not answer in time.
    case unreachable(HTTPError)
    /// The settings are incomplete (no server, not logged in) or a value is unusable.
    case notConfigured(String)

    /// Whether the same request may succeed later unchanged: the place is then queued.
    public var isTransient: Bool {
        switch self {
        case .unreachable, .serverFailure: true
        case .unauthorized, .usernameTaken, .refused, .notConfigured: false
        }
    }

    /// A sentence for a person (server messages are outside text: shown through the
    /// terminal's sanitising output, never as they are).
    public var message: String {
        switch self {
        case .unauthorized: "the sync server refused the user name or password"
        case .usernameTaken: "that user name is already registered on the sync server"
        case .refused(let status, let code, let message):
            "the sync server refused the request (HTTP \(status)\(code.map { ", code \($0)" } ?? ""))" + (message.map { ": \($0)" } ?? "")
        case .serverFailure(let status, let message):
            "the sync server failed (HTTP \(status))" + (message.map { ": \($0)" } ?? "")
        case .unreachable(let error): "the sync server cannot be reached: \(error.description)"
        case .notConfigured(let reason): reason
        }
    }
}

extension KosyncError: CustomStringConvertible {
    public var description: String { message }
}
