import FoundationEssentials

/// A certificate revocation list as downloaded and checked, with its dates.
public struct LCPCachedCRL: Sendable, Hashable {
    public let url: String
    /// The CRL, DER-encoded (what distribution points serve).
    public let der: Data
    /// When the issuer made it.
    public let thisUpdate: Date?
    /// When the issuer promises the next one, if it says.
    public let nextUpdate: Date?
    /// When Lectern downloaded it.
    public let retrievedAt: Date

    public init(url: String, der: Data, thisUpdate: Date?, nextUpdate: Date?, retrievedAt: Date) {
        self.url = url
        self.der = der
        self.thisUpdate = thisUpdate
        self.nextUpdate = nextUpdate
        self.retrievedAt = retrievedAt
    }
}

/// Where downloaded CRLs are kept between runs (only CRLs that were checked: a real DER CRL
/// signed by a known CA, not issued in the future), and when a download last failed, so that
/// an unreachable or broken distribution point is not asked at every opening.
public protocol LCPCRLRepository: Sendable {
    /// The CRL cached for `url`.
    func crl(url: String) throws(LCPError) -> LCPCachedCRL?
    /// Stores (or replaces) a checked CRL, and forgets any failure for its URL.
    func storeCRL(_ crl: LCPCachedCRL) throws(LCPError)
    /// When the last download of `url` failed, if it did since the last success.
    func lastFailedAttempt(url: String) throws(LCPError) -> Date?
    /// Records that downloading `url` failed at `date`, and why.
    func recordFailedAttempt(url: String, at date: Date, reason: String) throws(LCPError)
}
