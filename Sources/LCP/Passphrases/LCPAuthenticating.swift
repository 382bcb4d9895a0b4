import Shared

/// Asks for the passphrase of an LCP license: the terminal front end shows a masked prompt
/// with the license's hint and hint link; other front ends may look it up elsewhere.
public protocol LCPAuthenticating: Sendable {
    /// The passphrase (in clear, or its SHA-256 as 64 hexadecimal digits), or nil when the
    /// person cancels or none is available. Called again after each wrong passphrase with
    /// ``LCPAuthenticationReason/invalidPassphrase``, until it returns nil.
    ///
    /// - Parameter allowUserInteraction: whether a person may be prompted now (false while
    ///   importing); a non-interactive source may still answer.
    func retrievePassphrase(for license: LCPAuthenticatedLicense, reason: LCPAuthenticationReason,
                            allowUserInteraction: Bool, sender: (any Sendable)?) async -> String?
}

/// Why a passphrase is asked for.
public enum LCPAuthenticationReason: Sendable, Hashable {
    /// None of the stored passphrases opens the license.
    case passphraseNotFound
    /// The previous answer was wrong.
    case invalidPassphrase
}

/// What a passphrase prompt shows about a license (LCP §7.3: the hint, and the hint page).
public struct LCPAuthenticatedLicense: Sendable {
    public let document: LicenseDocument

    public init(document: LicenseDocument) {
        self.document = document
    }

    /// `encryption.user_key.text_hint`.
    public var hint: String { document.encryption.userKey.textHint }
    /// The page explaining how to find the passphrase.
    public var hintLink: LicenseLink? { document.link(LicenseRel.hint) }
    /// Where to ask for help (`mailto:`, `tel:` or web links).
    public var supportLinks: [LicenseLink] { document.links.filter(byRel: LicenseRel.support) }
    public var provider: String { document.provider }
}

/// Asks through Shared's credentials callback (the one given to `PublicationOpener`), so
/// that an application answering password prompts answers LCP passphrases too.
public struct LCPCredentialsAuthentication: LCPAuthenticating {
    /// The publication's title or file name, for the prompt.
    public let title: String
    public let onAskCredentials: OnAskCredentials

    public init(title: String, onAskCredentials: @escaping OnAskCredentials) {
        self.title = title
        self.onAskCredentials = onAskCredentials
    }

    public func retrievePassphrase(for license: LCPAuthenticatedLicense, reason: LCPAuthenticationReason,
                                   allowUserInteraction: Bool, sender: (any Sendable)?) async -> String? {
        guard allowUserInteraction else { return nil }
        let support = license.supportLinks.map(\.href).joined(separator: ", ")
        let request = CredentialsRequest(
            kind: .passphrase, title: title,
            message: "This publication is protected by Readium LCP. Enter its passphrase."
                + (support.isEmpty ? "" : " Support: \(support)."),
            hint: license.hint, hintLink: license.hintLink?.href,
            error: reason == .invalidPassphrase ? "Wrong passphrase." : nil)
        return await onAskCredentials(request, sender)
    }
}
