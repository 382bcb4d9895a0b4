/// What the checks of a Feedbooks audiobook found. Each check is independent; the audiobook is
/// restricted when any of them failed (audiobook-drm.md §5).
public struct AudiobookDRMReport: Sendable, Hashable {
    /// The result of one check.
    public enum Outcome: Sendable, Hashable {
        /// The check ran and passed.
        case passed
        /// The check did not apply or could not conclude, which counts as a pass; the reason
        /// says why (no data, server unreachable, not opened for listening…).
        case skipped(String)
        /// The check failed: the audiobook is restricted.
        case failed(AudiobookDRMError)

        /// The error, when the check failed.
        public var failure: AudiobookDRMError? {
            if case .failed(let error) = self { return error }
            return nil
        }
    }

    /// The validity period (`…/audiobooks/rights`).
    public var rights: Outcome
    /// The manifest signature (`…/audiobooks/signature`).
    public var signature: Outcome
    /// The License Status Document of the `license` link.
    public var licenseStatus: Outcome
    /// How many tracks are downloaded with a bearer token (`…/audiobooks/access-restriction`).
    public var accessRestrictedTracks: Int

    public init(rights: Outcome, signature: Outcome, licenseStatus: Outcome, accessRestrictedTracks: Int = 0) {
        self.rights = rights
        self.signature = signature
        self.licenseStatus = licenseStatus
        self.accessRestrictedTracks = accessRestrictedTracks
    }

    /// The first failure, in the order the checks run (rights, signature, license status).
    public var failure: AudiobookDRMError? {
        rights.failure ?? signature.failure ?? licenseStatus.failure
    }
}
