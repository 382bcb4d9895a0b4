import Shared

/// A Feedbooks audiobook's failed checks as protection restrictions, by case.
extension AudiobookDRMError: ProtectionRestrictionConvertible {
    public var protectionRestriction: ProtectionRestriction? {
        switch self {
        case .notYetAvailable(let start): .loanInactive(.notStarted(start), renewable: false)
        case .expired(let end): .loanInactive(.expired(end), renewable: false)
        case .unreadableRightsPeriod: .unavailable(.damaged(userMessage))
        case .licenseStatus(let status): Self.restriction(status: status, message: userMessage)
        case .unknownIssuer: .untrusted(.unknownSigner)
        case .unsupportedAlgorithm, .keysUnparseable: .untrusted(.unverifiable(userMessage))
        case .malformedSignature, .signatureInvalid: .untrusted(.signatureInvalid)
        case .keysUnavailable: .unavailable(.unreachable(userMessage))
        }
    }

    /// The License Status Document's `status` value (a protocol keyword, not a message).
    private static func restriction(status: String, message: String) -> ProtectionRestriction {
        switch status {
        case "revoked": .loanInactive(.revoked(nil), renewable: false)
        case "returned": .loanInactive(.returned(nil), renewable: false)
        case "cancelled": .loanInactive(.cancelled(nil), renewable: false)
        case "expired": .loanInactive(.expired(nil), renewable: false)
        default: .unavailable(.unexplained(message))
        }
    }
}
