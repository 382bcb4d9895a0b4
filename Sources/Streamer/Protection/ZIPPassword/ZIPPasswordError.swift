import LibZip
import Shared

/// Why a password-protected ZIP archive was not unlocked.
public enum ZIPPasswordError: Error, Sendable, CustomStringConvertible, UserMessageConvertible,
                              ProtectionRestrictionConvertible {
    /// No password was given (or the prompt was cancelled before any attempt).
    case passwordRequired
    /// The password does not match.
    case incorrectPassword
    /// The password passed the one-byte check of traditional PKWARE encryption but the data
    /// then failed its CRC: almost always a wrong password (one in 256 pass that check), else
    /// a damaged archive. Nothing tells the two apart.
    case incorrectPasswordOrDamaged
    /// Every encrypted entry uses an encryption Lectern cannot decrypt (PKWARE strong
    /// encryption, …).
    case unsupportedEncryption(method: UInt16)
    /// The encrypted entries cannot be read at all, whatever the password.
    case damaged(cause: any Error)

    public var userMessage: String {
        switch self {
        case .passwordRequired:
            "a password is required: this is a password-protected ZIP archive (its content, title included, is encrypted)"
        case .incorrectPassword:
            "incorrect password for this password-protected ZIP archive"
        case .incorrectPasswordOrDamaged:
            "incorrect password, or this password-protected ZIP archive is damaged (an encrypted entry fails its checksum)"
        case .unsupportedEncryption(let method):
            "this ZIP archive is encrypted with a method Lectern cannot decrypt (method \(method))"
        case .damaged(let cause):
            "this password-protected ZIP archive is damaged: \(Shared.userMessage(of: cause))"
        }
    }

    public var description: String { userMessage }

    public var protectionRestriction: ProtectionRestriction? {
        switch self {
        case .passwordRequired: .credentialsRequired(.init(kind: .password))
        case .incorrectPassword, .incorrectPasswordOrDamaged: .credentialsRequired(.init(kind: .password, refused: true))
        case .unsupportedEncryption(let method): .unsupported(scheme: "ZIP encryption (method \(method))")
        case .damaged: nil
        }
    }

    /// The opening error: the credentials cases are `incorrectCredentials`, since a
    /// password-protected ZIP cannot open restricted; the others are not about credentials.
    var openingError: OpeningError {
        switch self {
        case .passwordRequired, .incorrectPassword, .incorrectPasswordOrDamaged: .incorrectCredentials(userMessage)
        case .unsupportedEncryption: .forbidden(self)
        case .damaged: .parsingFailed(self)
        }
    }
}
