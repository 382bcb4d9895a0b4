/// Why a catalog document could not be read.
public enum OPDSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The document is larger than ``OPDSParser/maxDocumentSize``.
    case tooLarge(bytes: Int, limit: Int)
    /// The bytes are neither an Atom feed or entry nor an OPDS 2 JSON feed (e.g. an HTML page).
    case notACatalog(String)
    /// The XML or JSON is malformed.
    case malformed(String)

    public var description: String {
        switch self {
        case .tooLarge(let bytes, let limit):
            "the catalog document is too large (\(bytes) bytes; at most \(limit) are read)"
        case .notACatalog(let what): "not an OPDS catalog (\(what))"
        case .malformed(let reason): "malformed catalog document (\(reason))"
        }
    }
}
