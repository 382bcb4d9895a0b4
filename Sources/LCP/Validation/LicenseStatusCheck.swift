import FoundationEssentials

/// Whether a license may be read now, from its rights dates and, when they say no or when
/// the status server must be believed, its License Status Document (lcp.md §11.3, after
/// Readium's `LicenseValidation.checkLicenseStatus`).
enum LicenseStatusCheck {
    /// The status error locking the license, or nil when it may be read.
    ///
    /// - Parameter statusTakesPrecedence: true when the status server announced a newer
    ///   license that could not be downloaded: its status then wins over the local license.
    static func error(license: LicenseDocument, status: StatusDocument?, statusTakesPrecedence: Bool,
                      now: Date) -> LCPStatusError? {
        let start = license.rights.start, end = license.rights.end
        let notStarted = start.map { now < $0 } ?? false
        let ended = end.map { now > $0 } ?? false
        let statusLocks = status.map { $0.status != .ready && $0.status != .active } ?? false
        // The license takes precedence over the status document (LSD §3.2), except when a fresh
        // license was announced but could not be fetched.
        guard notStarted || ended || (statusTakesPrecedence && statusLocks) else { return nil }

        let date = status?.statusUpdated
        switch status?.status {
        case .returned?: return .returned(date)
        case .revoked?: return .revoked(date, devices: status?.registeredDeviceCount ?? 0)
        case .cancelled?: return .cancelled(date)
        case .ready?, .active?, .expired?, nil:
            if notStarted, let start { return .notStarted(start) }
            return .expired(end ?? date)
        }
    }
}
