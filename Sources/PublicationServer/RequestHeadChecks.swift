import FoundationEssentials
import HTTPTypes
import Shared

/// The server's own reading of a request head, without a socket: what SwiftNIO hands over
/// (the request target and the header fields) goes through the same checks as in
/// ``PublicationResponder`` — the `Host` check, a single `Host`, the route, the rights query,
/// `Range` with `If-Range`, and the `If-None-Match` / `If-Modified-Since` conditions.
///
/// The request line and header syntax are SwiftNIO's (llhttp) and Hummingbird's; this entry
/// point exists so the fuzzers (`HostileInputHarness`, target `http-request-head`) reach the
/// code that is ours at parser speed.
public enum RequestHeadChecks {
    /// What the server decided for one request head.
    public struct Verdict: Sendable, Equatable {
        /// The `Host` (first one) is one of the listening server's names.
        public var hostAccepted: Bool
        /// A second `Host` field makes the answer a 400.
        public var duplicateHostRefused: Bool
        /// The path names a route of the served publication (else 404).
        public var routed: Bool
        /// The byte ranges to send; nil for the whole resource, empty when unsatisfiable (416).
        public var ranges: [Range<UInt64>]?
        /// The conditional headers make the answer a 304.
        public var notModified: Bool
    }

    /// The secret, publication and listening address of the server the checks stand for.
    public static let secret = ServerSecret("0123456789abcdef0123456789abcdef01234567")
    public static let publicationID = "book"
    public static let host = "127.0.0.1"
    public static let port = 8080
    /// When the served file last changed.
    public static let lastModified = Date(timeIntervalSince1970: 1_700_000_000)

    private static let hostCheck = HostCheck(host: host, port: port)

    /// Runs the checks on `target` (the request target as sent: path and query) and `fields`
    /// (name, value; in order, duplicates kept) for a resource of `resourceLength` bytes.
    public static func evaluate(target: String, fields: [(name: String, value: String)],
                                resourceLength: UInt64) -> Verdict {
        var headers = HTTPFields()
        for (name, value) in fields {
            // SwiftNIO refuses a request whose field name is not a token before we see it.
            guard let name = HTTPField.Name(name) else { continue }
            headers.append(HTTPField(name: name, value: value))
        }
        // The first Host becomes the request's authority; the rest stay among the fields.
        var authority: String?
        if let index = headers.firstIndex(where: { $0.name.canonicalName == "host" }) {
            authority = headers[index].value
            headers.remove(at: index)
        }
        let (path, query) = split(target)
        let route = ServerRoute(rawPath: path, secret: secret, knownIDs: [publicationID])
        if case .copyRights? = route { _ = RightsRoutes.parameters(of: query) }
        if case .printRights? = route { _ = RightsRoutes.parameters(of: query) }

        let href = "/" + publicationID
        let etag = ResourceResponse.entityTag(href: href, length: resourceLength)
        let date = HTTPDate.format(lastModified)
        var ranges = ByteRanges(header: headers[.range], length: resourceLength)
        if let condition = headers[.ifRange]?.trimmingSpaces, condition != etag, condition != date { ranges = .whole }
        let notModified: Bool
        if let tags = headers[.ifNoneMatch] {
            notModified = ResourceResponse.matches(tags, etag)
        } else if let since = headers[.ifModifiedSince].flatMap({ HTTPDate.parse($0.trimmingSpaces) }) {
            notModified = lastModified <= since
        } else {
            notModified = false
        }
        let chosen: [Range<UInt64>]? = switch ranges {
        case .whole: nil
        case .partial(let list): list
        case .unsatisfiable: []
        }
        return Verdict(hostAccepted: hostCheck.accepts(authority),
                       duplicateHostRefused: HostCheck.refusal(ofDuplicateHostIn: headers) != nil,
                       routed: route != nil, ranges: chosen, notModified: notModified)
    }

    /// The largest number of ranges one answer may have.
    public static var maximumRangeCount: Int { ByteRanges.maximumCount }

    /// The path and the query (without `?`) of a request target.
    private static func split(_ target: String) -> (String, String?) {
        guard let mark = target.firstIndex(of: "?") else { return (target, nil) }
        return (String(target[..<mark]), String(target[target.index(after: mark)...]))
    }
}
