
/// Why an asset could not be opened.
public enum AssetError: Error, Sendable, CustomStringConvertible, UserMessageConvertible {
    /// Nothing at that path or URL (a dangling symbolic link included).
    case notFound(String)
    /// The file cannot be read (permissions, I/O, not a regular file, network failure).
    case unreadable(String, reason: String)
    /// Lectern does not recognise the content. Carries what it is when known (an OPDS feed,
    /// plain JSON…). A publication format here means one Lectern cannot open from there: a
    /// package on a web server, which must be downloaded first.
    case unsupportedFormat(String, detected: Format?)
    /// The content claims a format but is damaged (a truncated ZIP).
    case damaged(String, reason: String)

    public var description: String { userMessage }

    public var userMessage: String {
        switch self {
        case .notFound(let location): "no such file: \(location)"
        case .unreadable(let location, let reason): "cannot read \(location): \(reason)"
        case .unsupportedFormat(let location, let detected):
            if let detected, detected.isPublication {
                "\(location) is \(Format.describe(detected)), which Lectern opens only from a local file: download it first"
            } else if let detected {
                "\(location) is \(Format.describe(detected)), not a publication"
            } else {
                "\(location) is not a publication format Lectern knows"
            }
        case .damaged(let location, let reason): "\(location) is damaged: \(reason)"
        }
    }
}
