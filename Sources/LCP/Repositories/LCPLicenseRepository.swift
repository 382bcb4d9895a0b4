import FoundationEssentials
import Shared

/// A consumable right of an LCP license.
public enum LCPRight: String, Sendable, Hashable {
    /// Characters copied to the clipboard (LCP `rights.copy`).
    case copy
    /// Pages printed or exported (LCP `rights.print`).
    case print
}

/// Where licenses, their rights counters and the device's registrations are kept.
///
/// Implementations must make ``spend(_:amount:licenseID:)`` atomic across threads and
/// processes (one transaction: the decision, the conditional update and what is left): a
/// right is never consumed below zero, and never twice for the same remaining amount.
public protocol LCPLicenseRepository: Sendable {
    /// Stores `license` (its exact bytes), or updates the stored one. The rights counters are
    /// seeded from `rights.copy`/`rights.print` only the first time a license id is stored, and
    /// never reset by an update (renewal, status refresh).
    func addLicense(_ license: LicenseDocument, publicationPath: String?) throws(LCPError)

    /// The stored license bytes, if the license is known.
    func licenseData(id: String) throws(LCPError) -> Data?

    /// What is left of the license's rights (a NULL counter is unlimited); nil when the
    /// license is not stored.
    func allowance(licenseID: String) throws(LCPError) -> RightsAllowance?

    /// Consumes `amount` of `right`, all or nothing, in one transaction: refused (nothing
    /// consumed) when less is left or `amount` is negative; unlimited rights are always
    /// granted. The decision carries both counters as they are after it; nil when the
    /// license is not stored.
    func spend(_ right: LCPRight, amount: Int, licenseID: String) throws(LCPError) -> RightsDecision?

    /// Whether this device registered the license with its status server.
    func isDeviceRegistered(licenseID: String) throws(LCPError) -> Bool

    /// Records that the status server accepted this device's registration (call only after a
    /// successful answer).
    func registerDevice(licenseID: String) throws(LCPError)

    /// The device identifier sent to `provider`'s status server: a random UUID created on first
    /// use and kept (one per provider, so that providers cannot correlate devices).
    func deviceID(provider: String) throws(LCPError) -> String

    /// Remembers the last status document seen, for offline display.
    func updateStatus(_ status: StatusDocument, licenseID: String) throws(LCPError)
}

/// Where user keys (hashed passphrases) are kept: never passphrases, never content keys.
public protocol LCPPassphraseRepository: Sendable {
    /// The user keys stored for this license (hexadecimal).
    func passphrases(licenseID: String) throws(LCPError) -> [String]
    /// The user keys stored for other licenses of the same provider and user.
    func passphrases(provider: String, userID: String?) throws(LCPError) -> [String]
    /// Every stored user key, most recently used first, at most `limit`.
    func allPassphrases(limit: Int) throws(LCPError) -> [String]
    /// Stores a user key that opened `licenseID` (or marks it used now).
    func addPassphrase(_ hashedPassphrase: String, licenseID: String, provider: String, userID: String?) throws(LCPError)
}

extension LCPLicenseRepository {
    /// Whether `amount` of `right` was consumed (see ``spend(_:amount:licenseID:)``); false
    /// when the license is not stored.
    public func consume(_ right: LCPRight, amount: Int, licenseID: String) throws(LCPError) -> Bool {
        try spend(right, amount: amount, licenseID: licenseID)?.isGranted ?? false
    }
}
