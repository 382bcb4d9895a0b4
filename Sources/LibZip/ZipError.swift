import CLecternZip

/// Why a ZIP archive or entry could not be read.
public enum ZipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not exist or cannot be opened.
    case cannotOpen(String)
    /// The file is not a ZIP archive.
    case notAnArchive
    /// The archive's structure is damaged.
    case inconsistent(String)
    /// The archive was closed.
    case closed
    /// No entry has this name or index.
    case entryNotFound(String)
    /// The entry is encrypted and no password was given.
    case passwordRequired
    /// The password does not match the entry.
    case wrongPassword
    /// The data does not match its checksum: damaged entry, or a wrong traditional-PKWARE
    /// password that passed the one-byte check.
    case checksumMismatch
    /// The entry uses an encryption method that cannot be read.
    case unsupportedEncryption(UInt16)
    /// The entry uses a compression method that cannot be read.
    case unsupportedCompression(UInt16)
    /// The entry declares more than allowed.
    case tooLarge(UInt64)
    /// The entry expands to more than the size it declares.
    case largerThanDeclared(UInt64)
    /// The archive's compressed entries would expand to more, in all, than allowed.
    case tooMuchToInflate(UInt64, limit: UInt64)
    /// Any other read failure.
    case readFailed(String)

    public var description: String {
        switch self {
        case .cannotOpen(let reason): "cannot open the archive (\(reason))"
        case .notAnArchive: "not a ZIP archive"
        case .inconsistent(let reason): "damaged ZIP archive (\(reason))"
        case .closed: "the archive is closed"
        case .entryNotFound(let name): "no entry named \(name)"
        case .passwordRequired: "the archive is password-protected"
        case .wrongPassword: "wrong password"
        case .checksumMismatch: "wrong password or damaged archive (checksum mismatch)"
        case .unsupportedEncryption(let method): "unsupported ZIP encryption method \(method)"
        case .unsupportedCompression(let method): "unsupported ZIP compression method \(method)"
        case .tooLarge(let size): "entry too large (\(size) bytes, more than Lectern reads at once)"
        case .largerThanDeclared(let size): "an entry expands to more than the \(size) bytes it declares"
        case .tooMuchToInflate(let size, let limit):
            "its compressed entries would expand to \(size) bytes, more than the \(limit) allowed (a zip bomb?)"
        case .readFailed(let reason): "read error (\(reason))"
        }
    }
}

extension ZipError {
    /// libzip is loaded on first use (#28): without it no archive opens, and this says which
    /// package is missing rather than ending the program in the shim.
    static func requireLibrary() throws(ZipError) {
        guard lectern_zip_load() == 1 else {
            throw .cannotOpen("Lectern reads ZIP archives (EPUB, CBZ…) with libzip, which could not be loaded: install libzip4")
        }
    }
}
