import Shared

/// Opens a local file or a URL as an ``Asset``: sniffs its format from its extension, its
/// declared media type and its content, and makes the leaf fetcher that reads it.
///
/// (Stub: the sniffing implementation lands with the format-sniffing work.)
public struct AssetRetriever: Sendable {
    public let httpClient: any HTTPClient

    public init(httpClient: any HTTPClient = CurlHTTPClient()) {
        self.httpClient = httpClient
    }
}

/// Why an asset could not be opened.
public enum AssetError: Error, Sendable, CustomStringConvertible, UserMessageConvertible {
    /// Nothing at that path or URL.
    case notFound(String)
    /// The file cannot be read (permissions, I/O).
    case unreadable(String, reason: String)
    /// Lectern does not recognise the content. Carries what it is when known (an OPDS feed,
    /// plain JSON…).
    case unsupportedFormat(String, detected: Format?)
    /// The content claims a format but is damaged (a truncated ZIP).
    case damaged(String, reason: String)

    public var description: String { userMessage }

    public var userMessage: String {
        switch self {
        case .notFound(let location): "no such file: \(location)"
        case .unreadable(let location, let reason): "cannot read \(location): \(reason)"
        case .unsupportedFormat(let location, let detected):
            if let detected { "\(location) is \(Format.describe(detected)), not a publication" }
            else { "\(location) is not a publication format Lectern knows" }
        case .damaged(let location, let reason): "\(location) is damaged: \(reason)"
        }
    }
}

extension Format {
    /// A phrase naming the format for messages ("an OPDS 1 feed").
    public static func describe(_ format: Format) -> String {
        switch format.kind {
        case .opds1Feed: "an OPDS 1 catalog feed"
        case .opds1Entry: "an OPDS 1 catalog entry"
        case .opds2Feed: "an OPDS 2 catalog feed"
        case .opds2Publication: "an OPDS 2 publication entry"
        case .opdsAuthentication: "an OPDS authentication document"
        case .html: "an HTML document"
        case .xhtml: "an XHTML document"
        case .json: "a JSON document"
        case .xml: "an XML document"
        case .zip: "a ZIP archive"
        case .lpf: "a W3C Lightweight Packaging Format file"
        case .w3cWPUBManifest: "a W3C Web Publication manifest"
        default: "a publication of format \(format.kind.rawValue)"
        }
    }
}
