/// A failure of libmpv: not installed, or an API call refused.
public enum MPVError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libmpv could not be loaded.
    case unavailable
    /// `call` failed with mpv's error `code` (a negative `mpv_error`).
    case failed(call: String, code: Int32, message: String)

    public var description: String {
        switch self {
        case .unavailable: "libmpv (Debian package libmpv2) is not installed"
        case .failed(let call, _, let message): "\(call): \(message)"
        }
    }

    /// mpv's text for an error code.
    public static func text(_ code: Int32) -> String { MPV.errorText(code) }

    static func check(_ code: Int32, _ call: @autoclosure () -> String) throws(MPVError) {
        if code < 0 { throw .failed(call: call(), code: code, message: text(code)) }
    }
}
