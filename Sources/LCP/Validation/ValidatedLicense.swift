import FoundationEssentials

/// A license that passed validation (parsing, profile) with its status document, and either
/// the keys that decrypt it or why they are not available. A license that is expired,
/// returned, revoked or still locked by its passphrase is "validated" in this sense, so that
/// its information and its renew and return links stay reachable.
public struct ValidatedLicense: Sendable {
    public let license: LicenseDocument
    public let status: StatusDocument?
    /// The decryption keys, or why there are none (a status error, a missing or wrong
    /// passphrase).
    public let context: Result<any LCPClientContext, LCPError>

    /// Why the publication is locked, or nil when it can be read.
    public var error: LCPError? {
        if case .failure(let error) = context { return error }
        return nil
    }
}

/// Provides the certificate revocation list a license's provider certificate is checked
/// against. Implementations must answer from what they have (a cached copy) and refresh in
/// the background: opening a book never waits on the network for a CRL (LCP §7.4).
public protocol LCPCRLProvider: Sendable {
    /// The CRL, PEM-encoded, to check `license`'s certificate against; nil when none is
    /// known (a downloaded DER CRL converts with `X509CRL(der:).pem`).
    func crl(for license: LicenseDocument) async -> String?

    /// What ``crl(for:)`` gives now, for the license information: a CRL and its date, or
    /// none (the certificate is then not checked for revocation).
    func revocationStatus(for license: LicenseDocument) async -> LCPRevocationStatus
}

extension LCPCRLProvider {
    public func revocationStatus(for license: LicenseDocument) async -> LCPRevocationStatus {
        guard let pem = await crl(for: license) else { return .unavailable }
        return .checked(thisUpdate: LCPRevocationStatus.thisUpdate(ofPEM: pem), isStale: false)
    }
}

/// A fixed CRL (tests, configuration).
public struct LCPStaticCRLProvider: LCPCRLProvider {
    public let pem: String?

    public init(pem: String?) {
        self.pem = pem
    }

    public func crl(for license: LicenseDocument) async -> String? { pem }
}
