import Bookshelf

/// The license details popup of an LCP publication: its fields, and renew/return when the
/// status document offers them (return asks to confirm).
public struct LicenseState: Sendable {
    public let entry: LibraryEntry
    /// nil while the license is read.
    public var details: LicenseServices.Details?
    public var error: String?
    /// A renewal or return in progress, or its result.
    public var note: String?
    public var confirmingReturn = false
    public var busy = false
    public var top = 0

    public init(entry: LibraryEntry) {
        self.entry = entry
    }
}

/// A download from a `.lcpl` in progress: its progress bar, Esc cancels.
public struct AcquisitionState: Sendable {
    public let license: String
    public var progress: LicenseServices.Progress?
    public var cancelling = false

    public init(license: String) {
        self.license = license
    }
}
