import Shared
import FoundationEssentials
import LibCrypto

/// Whether a license's provider certificate was checked against a certificate revocation
/// list when it was unlocked.
public enum LCPRevocationStatus: Sendable, Hashable {
    /// Checked against the CRL issued at `thisUpdate`; `isStale` when that CRL is due for a
    /// refresh that has not succeeded yet (offline: the last one is used).
    case checked(thisUpdate: Date?, isStale: Bool)
    /// No CRL has been downloaded yet (first use offline, or the distribution point serves
    /// nothing usable): the license was opened without a revocation check.
    case unavailable

    /// A line for the license information.
    public var note: String {
        switch self {
        case .checked(let date?, false): "checked against the revocation list of \(RFC3339Date.display(date))"
        case .checked(let date?, true): "checked against the revocation list of \(RFC3339Date.display(date)) (due for a refresh)"
        case .checked(nil, _): "checked against the configured revocation list"
        case .unavailable: "not checked: no certificate revocation list could be downloaded yet"
        }
    }

    /// `thisUpdate` of a PEM or DER CRL.
    static func thisUpdate(ofPEM pem: String) -> Date? {
        (try? X509CRL(pemOrDER: Array(pem.utf8)))?.thisUpdate.map { Date(timeIntervalSince1970: Double($0)) }
    }
}
