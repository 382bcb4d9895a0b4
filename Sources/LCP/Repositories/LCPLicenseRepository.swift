import FoundationEssentials

/// A consumable right of an LCP license.
public enum LCPRight: String, Sendable, Hashable {
    /// Characters copied to the clipboard (LCP `rights.copy`).
    case copy
    /// Pages printed or exported (LCP `rights.print`).
    case print
}

/// What is left of a license's consumable rights; nil = unlimited.
public struct LCPRightsLeft: Sendable, Hashable {
    public var copies: Int?
    public var prints: Int?

    public init(copies: Int?, prints: Int?) {
        self.copies = copies
        self.prints = prints
    }
}

/// Where licenses, their rights counters and the device's registrations are kept.
///
/// Implementations must make ``consume(_:amount:licenseID:)`` atomic across threads and
/// processes (one transaction with a conditional update): a right is never consumed below
/// zero, and never twice for the same remaining amount.
public protocol LCPLicenseRepository: Sendable {
    /// Stores `license` (its exact bytes), or updates the stored one. The rights counters are
    /// seeded from `rights.copy`/`rights.print` only the first time a license id is stored, and
    /// never reset by an update (renewal, status refresh).
    func addLicense(_ license: LicenseDocument, publicationPath: String?) throws(LCPError)

    /// The stored license bytes, if the license is known.
    func licenseData(id: String) throws(LCPError) -> Data?

    /// What is left of the license's rights; nil when the license is not stored.
    func rightsLeft(licenseID: String) throws(LCPError) -> LCPRightsLeft?

    /// Consumes `amount` of `right`, all or nothing: returns false (and consumes nothing) when
    /// less is left, or when the license is not stored. Unlimited rights always succeed.
    func consume(_ right: LCPRight, amount: Int, licenseID: String) throws(LCPError) -> Bool

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
