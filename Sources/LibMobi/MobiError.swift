/// Why a Mobipocket or Kindle book cannot be read.
public enum MobiError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be opened (missing, permission denied).
    case cannotOpen(String)
    /// The file is larger than a book read whole in memory may be.
    case tooLarge(size: UInt64, limit: UInt64)
    /// libmobi refuses the content: truncated, damaged, not a MOBI file.
    case damaged(String)
    /// The book is protected by Amazon's DRM, named here.
    case drmProtected(protection: String)
    /// libmobi is not installed (it is loaded on first use, not linked).
    case libraryUnavailable

    public var description: String {
        switch self {
        case .cannotOpen(let reason): "cannot open the book: \(reason)"
        case .tooLarge(let size, let limit): "the book is \(size >> 20) MiB, more than the \(limit >> 20) MiB Lectern reads"
        case .damaged(let reason): "the MOBI file is damaged or truncated: \(reason)"
        case .drmProtected(let protection):
            "this Kindle book is protected by \(protection); Lectern does not remove DRM and cannot open it"
        case .libraryUnavailable: "MOBI and AZW3 support needs libmobi (libmobi0), which is not installed"
        }
    }

    /// The name of the protection for a record 0 encryption type.
    public static func protection(encryptionType: UInt16) -> String {
        switch encryptionType {
        case 1: "old Mobipocket DRM (encryption type 1)"
        case 2: "Mobipocket/Kindle DRM (encryption type 2)"
        default: "Kindle DRM (encryption type \(encryptionType))"
        }
    }
}
