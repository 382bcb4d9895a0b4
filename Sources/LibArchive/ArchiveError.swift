/// Why an archive read through libarchive cannot be used.
public enum ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be opened (missing, permission denied).
    case cannotOpen(String)
    /// libarchive refuses the content: truncated, damaged, not an archive it knows.
    case damaged(String)
    /// Entries (or the whole directory) are encrypted with a password, which libarchive
    /// cannot decrypt in RAR and 7z archives.
    case encrypted(format: String)
    /// A variant of the format libarchive does not read (a solid RAR 4 archive); the words
    /// say which and what is read instead.
    case unsupported(String)
    /// More entries than an archive of pictures plausibly holds (a bomb of empty entries).
    case tooManyEntries(limit: Int)
    /// One entry expands past what a page may take in memory (a decompression bomb).
    case entryTooLarge(path: String, limit: UInt64)
    /// No entry at this index.
    case entryNotFound(Int)
    /// The archive was closed.
    case closed
    /// libarchive is not installed (it is loaded on first use, not linked).
    case libraryUnavailable

    public var description: String {
        switch self {
        case .cannotOpen(let reason): "cannot open the archive: \(reason)"
        case .damaged(let reason): "the archive is damaged or truncated: \(reason)"
        case .encrypted(let format):
            "this \(format) archive is password-protected; Lectern reads RAR, 7z and tar archives through libarchive, "
                + "which cannot decrypt \(format == "7z" ? "7z's AES-256" : format) encryption (it decrypts only ZIP archives: "
                + "traditional ZIP encryption and WinZip AES); re-pack the pages as a CBZ, whose ZIP password Lectern asks for"
        case .unsupported(let reason): reason
        case .tooManyEntries(let limit): "the archive holds more than \(limit) entries"
        case .entryTooLarge(let path, let limit):
            "the entry \(path) expands past \(limit >> 20) MiB (a decompression bomb or a damaged archive)"
        case .entryNotFound(let index): "no entry #\(index) in the archive"
        case .closed: "the archive is closed"
        case .libraryUnavailable: "RAR, 7z and tar comics need libarchive (libarchive13), which is not installed"
        }
    }
}
