/// Why a DjVu document or page cannot be read, in words for a person.
public enum DjVuError: Error, Sendable, Equatable, CustomStringConvertible {
    /// djvulibre could not decode the document's structure (truncated, bad chunks, not DjVu).
    case damaged(String)
    /// The document is larger than Lectern reads from memory.
    case tooLarge(size: UInt64, limit: UInt64)
    /// The document claims more pages than Lectern accepts.
    case tooManyPages(Int)
    /// The document has no pages.
    case noPages
    /// An indirect (multi-file) document read from memory: its pages are other files.
    case indirect
    /// djvulibre could not be loaded (the `libdjvulibre21` package is missing).
    case libraryUnavailable

    public var description: String {
        switch self {
        case .damaged(let reason): "the DjVu document is damaged: \(reason)"
        case .tooLarge(let size, let limit): "the DjVu document is too large (\(size) bytes; at most \(limit) are read)"
        case .tooManyPages(let count): "the DjVu document claims \(count) pages, more than Lectern reads (\(DjVuDocument.maxPageCount))"
        case .noPages: "the DjVu document has no pages"
        case .indirect: "the DjVu document is indirect (its pages are separate files) and must be opened from its folder"
        case .libraryUnavailable: "DjVu support needs djvulibre (libdjvulibre21), which is not installed"
        }
    }
}
