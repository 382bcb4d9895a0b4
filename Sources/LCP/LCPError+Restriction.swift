import Shared

/// LCP's errors as protection restrictions, by case: what the reader and the command line say
/// and whether trying again makes sense follow from the case, never from the message.
extension LCPError: ProtectionRestrictionConvertible {
    public var protectionRestriction: ProtectionRestriction? {
        switch self {
        case .missingPassphrase:
            .credentialsRequired(.init(kind: .passphrase))
        case .wrongPassphrase(let hint, _):
            .credentialsRequired(.init(kind: .passphrase, hint: hint.isEmpty ? nil : hint, refused: true))
        case .status(let status):
            status.protectionRestriction(renewable: false)
        case .certificateRevoked:
            .untrusted(.certificateRevoked)
        case .certificateUntrusted:
            .untrusted(.unknownSigner)
        case .certificateExpiredAtLicenseDate(let date):
            .untrusted(.certificateNotValidWhenIssued(date))
        case .signatureInvalid:
            .untrusted(.signatureInvalid)
        case .licenseIntegrity:
            .untrusted(.unverifiable(userMessage))
        case .profileNotSupported(let profile):
            .unsupported(scheme: "Readium LCP (\(Self.profileName(profile)) profile)")
        case .licenseMissing, .invalidLicense, .contentKeyDecryptError, .licenseMismatch, .decryption, .licenseContainer,
             .notLCPProtected, .publicationLengthMismatch, .publicationHashMismatch, .notAPublication:
            .unavailable(.damaged(userMessage))
        case .network, .publicationUnavailable, .serverError:
            .unavailable(.unreachable(userMessage))
        case .licenseBusy:
            .unavailable(.busy)
        case .repository:
            .unavailable(.storage(userMessage))
        case .invalidStatus, .interactionNotAvailable, .renewedLicenseRefused, .cancelled, .renewFailed, .renewalDateNotAllowed,
             .renewalNotExtended, .returnFailed, .alreadyReturned, .loanAlreadyExpired, .registrationFailed, .invalidCRL:
            // Interactions and optional documents: they never lock a publication themselves.
            .unavailable(.unexplained(userMessage))
        }
    }
}

extension LCPStatusError {
    /// The loan state; `renewable` when the license offers a renewal (only an expired loan
    /// can use it).
    public func protectionRestriction(renewable: Bool) -> ProtectionRestriction {
        switch self {
        case .notStarted(let date): .loanInactive(.notStarted(date), renewable: false)
        case .expired(let date): .loanInactive(.expired(date), renewable: renewable)
        case .returned(let date): .loanInactive(.returned(date), renewable: false)
        case .revoked(let date, _): .loanInactive(.revoked(date), renewable: false)
        case .cancelled(let date): .loanInactive(.cancelled(date), renewable: false)
        }
    }
}
