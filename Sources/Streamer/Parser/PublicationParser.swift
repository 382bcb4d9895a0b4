import Shared

/// Turns an (unprotected or unlocked) asset into a publication builder. Parsers are tried in
/// order; the first that recognises the format wins.
public protocol PublicationParser: Sendable {
    /// Parses `asset`, reading through `fetcher` (which may decrypt).
    ///
    /// - Returns: nil when the asset's format is not this parser's.
    /// - Throws: when the format is this parser's but the publication is unusable.
    func parse(asset: Asset, fetcher: any Fetcher, warnings: (any WarningLogger)?) throws(PublicationParseError) -> PublicationBuilder?
}

/// Why a publication could not be parsed.
public enum PublicationParseError: Error, Sendable, CustomStringConvertible, UserMessageConvertible {
    /// A required resource is missing, e.g. the package document named by container.xml.
    case missingResource(href: String, what: String)
    /// A required resource could not be read.
    case unreadableResource(href: String, ResourceError)
    /// A document is not valid enough to be used.
    case invalid(href: String?, reason: String)
    /// The publication is sound but of a kind Lectern cannot read (an encryption or a variant
    /// of the format its library does not support); the reason says which.
    case unsupported(reason: String)

    public var description: String { userMessage }

    public var userMessage: String {
        switch self {
        case .missingResource(let href, let what): "\(what) is missing (\(href))"
        case .unreadableResource(let href, let error): "\(href) cannot be read: \(Shared.userMessage(of: error))"
        case .invalid(let href, let reason): href.map { "\($0): \(reason)" } ?? reason
        case .unsupported(let reason): reason
        }
    }
}
