import Shared

/// The content protection service of an LCP publication: restricted when the license failed
/// validation, is out of its rights, or is still locked by its passphrase; its rights are the
/// license's.
public final class LCPContentProtectionService: ContentProtectionService {
    /// The license, when it could be read (even locked).
    public let license: LCPLicense?
    private let failure: LCPError?
    private let cache: DecryptedResourceCache?

    init(license: LCPLicense?, error: LCPError?, cache: DecryptedResourceCache?) {
        self.license = license
        failure = error
        self.cache = cache
    }

    /// Why the publication is locked: the validation failure, else the license's status or
    /// passphrase error.
    public var lcpError: LCPError? { failure ?? license?.error }

    public var error: (any Error)? { lcpError }
    public var isRestricted: Bool { lcpError != nil }
    /// The license's error by case; an expired loan is renewable when its status document
    /// offers a renewal.
    public var restriction: ProtectionRestriction? {
        guard let lcpError else { return nil }
        if case .status(let status) = lcpError { return status.protectionRestriction(renewable: license?.canRenewLoan ?? false) }
        return lcpError.protectionRestriction
    }
    public var rights: any UserRights {
        guard let license, !isRestricted else { return AllRestrictedUserRights() }
        return license
    }
    public var name: LocalizedString? { .nonlocalized("Readium LCP") }
    public var scheme: String { LCPDecryptor.scheme }

    public func close() { cache?.removeAll() }
}

extension Publication {
    /// The LCP license, when the publication is protected with Readium LCP.
    public var lcpLicense: LCPLicense? { findService(LCPContentProtectionService.self)?.license }
}
