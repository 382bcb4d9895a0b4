import FoundationEssentials
import Shared

/// Why a Feedbooks audiobook is restricted: a failed check of its validity period, its license
/// status or its signature (audiobook-drm.md §5).
public enum AudiobookDRMError: Error, Sendable, Hashable, CustomStringConvertible, UserMessageConvertible {
    /// The rights period has not started.
    case notYetAvailable(Date)
    /// The rights period has ended.
    case expired(Date)
    /// The rights period is present but cannot be read (which bounds, or why).
    case unreadableRightsPeriod(String)
    /// The License Status Document gives a status other than `ready` or `active`.
    case licenseStatus(String)
    /// The signature names no issuer (nil) or one Lectern does not trust.
    case unknownIssuer(String?)
    /// The signature's algorithm is not RSA with SHA-256 (nil when it names none).
    case unsupportedAlgorithm(String?)
    /// The signature object cannot be read (no value, not base64, not an object…).
    case malformedSignature(String)
    /// The issuer's key set could not be downloaded and none is cached.
    case keysUnavailable(issuer: String, url: String, reason: String)
    /// The issuer's key set is not a JSON Web Key Set with a usable RSA key.
    case keysUnparseable(issuer: String, url: String, reason: String)
    /// No key of the issuer verifies the signature: the manifest was changed or not signed by it.
    case signatureInvalid(issuer: String)

    public var userMessage: String {
        switch self {
        case .notYetAvailable(let start):
            "This audiobook is not yet available until \(RFC3339Date.display(start))."
        case .unreadableRightsPeriod(let what):
            what.hasPrefix("it ") ? "This audiobook's rights period cannot be read (\(what)), so it is not opened."
                : "This audiobook's rights period cannot be read (its \(what)), so it is not opened."
        case .expired(let end):
            "This audiobook loan expired on \(RFC3339Date.display(end))."
        case .licenseStatus(let status):
            switch status {
            case "revoked": "This audiobook license was revoked (license status “revoked”)."
            case "returned": "This audiobook was returned (license status “returned”)."
            case "cancelled": "This audiobook license was cancelled (license status “cancelled”)."
            case "expired": "This audiobook loan has expired (license status “expired”)."
            default: "This audiobook license cannot be used (license status “\(status)”)."
            }
        case .unknownIssuer(nil):
            "Unknown signature issuer: the audiobook's signature names no issuer, so it cannot be verified."
        case .unknownIssuer(let issuer?):
            "Unknown signature issuer: Lectern does not know “\(issuer)” as a signer of audiobooks."
        case .unsupportedAlgorithm(let algorithm):
            "Unsupported signature algorithm “\(algorithm ?? "none")”: only RSA with SHA-256 is accepted."
        case .malformedSignature(let reason):
            "The audiobook's signature is malformed: \(reason)."
        case .keysUnavailable(let issuer, let url, let reason):
            "The signing keys of \(issuer) could not be retrieved from \(url) (\(reason)), so the audiobook's signature cannot be verified."
        case .keysUnparseable(let issuer, let url, let reason):
            "The signing keys of \(issuer) at \(url) could not be parsed (\(reason)), so the audiobook's signature cannot be verified."
        case .signatureInvalid(let issuer):
            "The audiobook's signature is invalid: no signing key of \(issuer) verifies it (the manifest was altered or not signed by its issuer)."
        }
    }

    public var description: String { userMessage }
}
