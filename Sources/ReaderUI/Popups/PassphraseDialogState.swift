import Shared
import Terminal

/// The one passphrase dialog of Lectern, answering both the Streamer's `onAskCredentials`
/// (ZIP and PDF passwords) and LCP's `LCPAuthenticating`: the publication's title, the
/// protection's message, the hint and hint link, masked input with a key to show it, and
/// the error of the previous attempt.
public struct PassphraseDialogState: Sendable {
    public let request: CredentialsRequest
    public private(set) var field = TextField()
    /// Whether the input is shown in clear (Ctrl-R or F2 toggles).
    public private(set) var revealed = false

    public init(request: CredentialsRequest) {
        self.request = request
    }

    /// What the dialog decided.
    public enum Outcome: Sendable, Hashable {
        case none
        /// Submit this passphrase.
        case submit(String)
        /// Esc: the publication stays restricted.
        case cancel
    }

    public mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .control("r"), .function(2):
            revealed.toggle()
            return .none
        default:
            switch field.handle(key) {
            case .submitted(let text): return .submit(text)
            case .cancelled: return .cancel
            case .edited, .ignored: return .none
            }
        }
    }

    /// The input as drawn: bullets unless revealed.
    public var displayedInput: String {
        revealed ? field.string : String(repeating: "•", count: field.text.count)
    }

    /// The dialog's title line.
    public var heading: String {
        request.kind == .passphrase ? "Passphrase" : "Password"
    }
}
