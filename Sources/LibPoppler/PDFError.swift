/// Why a PDF document could not be opened or read.
public enum PDFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The document is encrypted and the password is missing or wrong (poppler cannot tell
    /// the two apart).
    case passwordRequired
    /// The file cannot be opened (missing, unreadable).
    case cannotOpen(String)
    /// The bytes are not a usable PDF (truncated, garbage, no catalog).
    case damaged(String)
    /// An in-memory document would exceed ``PDFDocument/maxInMemorySize``.
    case tooLarge(UInt64)
    /// The document was closed.
    case closed
    /// poppler-glib could not be loaded (the `libpoppler-glib8` package is missing).
    case libraryUnavailable

    public var description: String {
        switch self {
        case .passwordRequired: "the PDF is encrypted and the password is missing or incorrect"
        case .cannotOpen(let reason): "cannot open the PDF (\(reason))"
        case .damaged(let reason): "damaged PDF (\(reason))"
        case .tooLarge(let size): "the PDF is too large to be read in memory (\(size) bytes)"
        case .closed: "the PDF document is closed"
        case .libraryUnavailable: "PDF support needs poppler-glib (libpoppler-glib8), which is not installed"
        }
    }
}
