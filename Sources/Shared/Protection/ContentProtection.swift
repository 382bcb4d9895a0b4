/// A content protection technology plugged into the publication opener: a DRM (LCP, signed
/// audiobook manifests) or a format-specific protection (ZIP or PDF password).
public protocol ContentProtection: Sendable {
    /// Tries to unlock `asset`.
    ///
    /// - Parameters:
    ///   - fetcher: the leaf fetcher of the asset; wrap it (decryption) or replace it.
    ///   - credentials: a password or passphrase given by the caller, tried first.
    ///   - allowUserInteraction: whether `onAskCredentials` may be called; false when
    ///     importing, where nobody must be prompted.
    ///   - sender: context for the prompt, passed through.
    /// - Returns: nil when the asset is not protected by this technology; a protected asset
    ///   (possibly restricted) otherwise.
    /// - Throws: an ``OpeningError`` only when not even a restricted publication can be made.
    func open(asset: Asset, fetcher: any Fetcher, credentials: String?, allowUserInteraction: Bool,
              sender: (any Sendable)?, onAskCredentials: OnAskCredentials?) async throws(OpeningError) -> ProtectedAsset?
}

/// What a protection made of an asset.
public struct ProtectedAsset: Sendable {
    /// The asset to parse; its format may differ (e.g. an LCP PDF parsed as a PDF package).
    public var asset: Asset
    /// The fetcher the parser will read through.
    public var fetcher: any Fetcher
    /// Applied to the publication builder before building: installs the
    /// ``ContentProtectionService``.
    public var onCreatePublication: PublicationBuilder.Transform?

    public init(asset: Asset, fetcher: any Fetcher, onCreatePublication: PublicationBuilder.Transform?) {
        self.asset = asset
        self.fetcher = fetcher
        self.onCreatePublication = onCreatePublication
    }
}

/// Asks the person for a password or passphrase; returns nil when they cancel.
public typealias OnAskCredentials = @Sendable (CredentialsRequest, _ sender: (any Sendable)?) async -> String?

/// What the credentials prompt shows.
public struct CredentialsRequest: Sendable, Hashable {
    /// What is asked for.
    public enum Kind: Sendable, Hashable {
        /// A ZIP or PDF password.
        case password
        /// An LCP passphrase.
        case passphrase
    }

    public var kind: Kind
    /// The publication's title, or its file name.
    public var title: String
    /// What the protection says, e.g. "This PDF is protected by a password."
    public var message: String
    /// The license hint (LCP `text_hint`).
    public var hint: String?
    /// A page explaining where to find the passphrase (LCP `hint` link).
    public var hintLink: String?
    /// Why the previous attempt was refused; nil on the first request.
    public var error: String?

    public init(kind: Kind, title: String, message: String, hint: String? = nil, hintLink: String? = nil, error: String? = nil) {
        self.kind = kind
        self.title = title
        self.message = message
        self.hint = hint
        self.hintLink = hintLink
        self.error = error
    }
}
