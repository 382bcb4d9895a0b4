import Shared

/// What a request path designates, once the secret, the publication and every segment have
/// been checked. Anything else is a 404: there is no directory listing, and no path that
/// leaves a publication (`..`, `%2e%2e`, backslashes, encoded slashes, absolute paths).
enum ServerRoute: Equatable {
    /// `/SECRET/pub/ID/`: the reader page.
    case readerPage(id: String)
    /// `/SECRET/pub/ID/manifest.json`.
    case manifest(id: String)
    /// `/SECRET/pub/ID/~readium/content-protection`.
    case contentProtection(id: String)
    /// `/SECRET/pub/ID/~readium/rights/copy`.
    case copyRights(id: String)
    /// `/SECRET/pub/ID/~readium/rights/print`.
    case printRights(id: String)
    /// `/SECRET/pub/ID/~lectern/NAME`: the reader page's script or style sheet.
    case readerAsset(id: String, name: String)
    /// `/SECRET/pub/ID/PATH`: a resource, by its package path (percent-decoded, no dot segments).
    case resource(id: String, path: String)

    /// The route of `rawPath` (as sent, percent-encoded, without the query), or nil (→ 404).
    init?(rawPath: String, secret: ServerSecret, knownIDs: Set<String>) {
        let segments = rawPath.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 5, segments[0].isEmpty, secret.matches(segments[1]), segments[2] == "pub",
              knownIDs.contains(String(segments[3]))
        else { return nil }
        let id = String(segments[3])
        let rest = segments[4...]
        if rest.count == 1, rest.first!.isEmpty {
            self = .readerPage(id: id)
            return
        }
        var decoded: [String] = []
        for segment in rest {
            guard let text = Href.percentDecoded(String(segment)), Self.isSafeSegment(text) else { return nil }
            decoded.append(text)
        }
        let path = decoded.joined(separator: "/")
        switch path {
        case "manifest.json": self = .manifest(id: id)
        case "~readium/content-protection": self = .contentProtection(id: id)
        case "~readium/rights/copy": self = .copyRights(id: id)
        case "~readium/rights/print": self = .printRights(id: id)
        default:
            if decoded.count == 2, decoded[0] == "~lectern" {
                self = .readerAsset(id: id, name: decoded[1])
            } else {
                self = .resource(id: id, path: path)
            }
        }
    }

    /// A segment that names one entry inside its parent: not empty, not `.` or `..`, and free
    /// of separators (`/` from `%2F`, `\`) and control characters.
    static func isSafeSegment(_ segment: String) -> Bool {
        guard !segment.isEmpty, segment != ".", segment != ".." else { return false }
        return !segment.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }
    }
}
