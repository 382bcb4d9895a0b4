import FoundationEssentials

/// Why a protected publication cannot be read now, as its protection decided it: the one
/// value the reader's screen and the command line switch on to choose what to say and whether
/// trying again makes sense. Each protection (LCP, the ZIP and PDF passwords, signed
/// audiobooks, the DRMs Lectern cannot open) maps its own errors onto it, by case.
///
/// The message and the advice of each case are written once, in
/// `ProtectionRestriction+Wording.swift`; associated strings are details to show, never read.
public enum ProtectionRestriction: Sendable, Hashable {
    /// A password or passphrase is needed: none was given, the prompt was cancelled, or the
    /// one given was refused.
    case credentialsRequired(CredentialsNeed)
    /// A loan that is not active now; `renewable` when its provider offers a renewal.
    case loanInactive(LoanInactivity, renewable: Bool)
    /// The protection's signature or its signer cannot be trusted.
    case untrusted(UntrustedReason)
    /// A protection Lectern recognises but cannot open (named for people: "Adobe ADEPT").
    case unsupported(scheme: String)
    /// The protection could not decide now, or the file cannot be used.
    case unavailable(UnavailableReason)
}

extension ProtectionRestriction {
    /// What a password or passphrase prompt would need.
    public struct CredentialsNeed: Sendable, Hashable {
        /// A ZIP or PDF password, or an LCP passphrase.
        public var kind: CredentialsRequest.Kind
        /// The provider's hint (LCP `text_hint`), when there is one.
        public var hint: String?
        /// Whether credentials were given and refused (not merely missing or cancelled).
        public var refused: Bool

        public init(kind: CredentialsRequest.Kind, hint: String? = nil, refused: Bool = false) {
            self.kind = kind
            self.hint = hint
            self.refused = refused
        }
    }

    /// How a loan is not active.
    public enum LoanInactivity: Sendable, Hashable {
        /// The loan starts later (on that date, when known).
        case notStarted(Date?)
        /// The loan ended.
        case expired(Date?)
        /// The person gave the book back.
        case returned(Date?)
        /// The provider withdrew the license.
        case revoked(Date?)
        /// The loan was cancelled before it was used.
        case cancelled(Date?)
    }

    /// Why a signature or signer is not trusted.
    public enum UntrustedReason: Sendable, Hashable {
        /// The provider's certificate is on its authority's revocation list.
        case certificateRevoked
        /// The signer is not one Lectern trusts (an unknown certificate authority or issuer).
        case unknownSigner
        /// The provider's certificate was not valid when the license was issued (that date).
        case certificateNotValidWhenIssued(Date)
        /// The signature does not match: the file was altered after it was signed.
        case signatureInvalid
        /// The signature cannot be checked at all (an unknown algorithm, unreadable keys); the
        /// detail is the protection's own explanation.
        case unverifiable(String)
    }

    /// Why the protection could not open the publication now.
    public enum UnavailableReason: Sendable, Hashable {
        /// A server the protection needs did not answer (the protection's explanation).
        case unreachable(String?)
        /// Another request is checking the same license.
        case busy
        /// Lectern's own database could not be used (the reason).
        case storage(String?)
        /// The publication or its license is damaged or incomplete (what is wrong).
        case damaged(String?)
        /// A protection that gives no reason of its own (its message, when it has one).
        case unexplained(String?)
    }
}

/// An error that knows which ``ProtectionRestriction`` it amounts to (by its own cases).
public protocol ProtectionRestrictionConvertible {
    /// The restriction, or nil when the error does not keep a publication from being read.
    var protectionRestriction: ProtectionRestriction? { get }
}

extension OpeningError {
    /// The restriction behind an opening that failed for its protection: missing or refused
    /// credentials (a password-protected ZIP or PDF cannot open restricted), or a protection
    /// error carried as the cause; nil when the failure is not about protection.
    public var protectionRestriction: ProtectionRestriction? {
        switch self {
        case .incorrectCredentials:
            // Only the archive and PDF passwords fail the opening this way; LCP opens restricted.
            .credentialsRequired(ProtectionRestriction.CredentialsNeed(kind: .password))
        case .forbidden(let cause?), .unavailable(let cause?):
            (cause as? any ProtectionRestrictionConvertible)?.protectionRestriction
        case .unsupportedFormat, .notFound, .forbidden(nil), .unavailable(nil), .parsingFailed:
            nil
        }
    }
}
