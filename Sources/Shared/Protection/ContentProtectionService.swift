import FoundationEssentials

/// The protection of an open publication: whether it is restricted and why, and its rights.
public protocol ContentProtectionService: PublicationService {
    /// Whether resources are locked: the reader must refuse to render the publication.
    var isRestricted: Bool { get }
    /// Why it is restricted (expired, revoked, wrong passphrase…), to show a person.
    var error: (any Error)? { get }
    /// Why it is restricted, as a case the interface switches on (nil when it is not).
    var restriction: ProtectionRestriction? { get }
    /// Credentials the app may store to reopen without prompting (nil for LCP, which keeps
    /// its own user keys).
    var credentials: String? { get }
    var rights: any UserRights { get }
    /// User-facing name, as in "Protected by {name}".
    var name: LocalizedString? { get }
    /// A stable identifier of the technology (e.g. `http://readium.org/2014/01/lcp`,
    /// `zip-password`), for tools and JSON output.
    var scheme: String { get }
}

extension ContentProtectionService {
    public var credentials: String? { nil }
    /// A protection whose error knows its restriction gives it; one that gives no reason is
    /// "unexplained", with its error's message to show.
    public var restriction: ProtectionRestriction? {
        guard isRestricted else { return nil }
        if let typed = (error as? any ProtectionRestrictionConvertible)?.protectionRestriction { return typed }
        return .unavailable(.unexplained(error.map(userMessage(of:))))
    }
    public var rights: any UserRights { isRestricted ? AllRestrictedUserRights() : UnrestrictedUserRights() }

    public var links: [Link] {
        [
            Link(href: ContentProtectionRoutes.status, mediaType: MediaType("application/vnd.readium.content-protection+json")),
            Link(href: ContentProtectionRoutes.copy + "{?text,peek}", mediaType: MediaType("application/vnd.readium.rights.copy+json"), templated: true),
            Link(href: ContentProtectionRoutes.print + "{?pageCount,peek}", mediaType: MediaType("application/vnd.readium.rights.print+json"), templated: true),
        ]
    }

    /// Answers the web-service routes of the Content Protection proposal: the status document,
    /// and the copy and print rights (200 = allowed, 403 = forbidden; `peek` does not consume).
    public func get(_ link: Link) -> (any Resource)? {
        guard !link.templated, let path = Href.path(of: link.href) else { return nil }
        let query = ContentProtectionRoutes.query(of: link.href)
        let peek = query["peek"] == "true"
        switch "/" + path {
        case ContentProtectionRoutes.status:
            return StringResource(link: link, string: JSONWriter().string(statusJSON))
        case ContentProtectionRoutes.copy:
            guard let text = query["text"] else {
                return FailureResource(link: link, error: .other(ResourceFailure("missing `text` parameter")))
            }
            let allowed = peek ? rights.canCopy(text: text) : rights.copy(text: text)
            return allowed ? StringResource(link: link, string: "{}")
                : FailureResource(link: link, error: .forbidden(ResourceFailure("copy forbidden")))
        case ContentProtectionRoutes.print:
            guard let count = query["pageCount"].flatMap({ Int($0) }), count > 0 else {
                return FailureResource(link: link, error: .other(ResourceFailure("missing or invalid `pageCount`")))
            }
            let allowed = peek ? rights.canPrint(pageCount: count) : rights.print(pageCount: count)
            return allowed ? StringResource(link: link, string: "{}")
                : FailureResource(link: link, error: .forbidden(ResourceFailure("print forbidden")))
        default:
            return nil
        }
    }

    /// The `content-protection` route's document.
    public var statusJSON: JSONValue {
        var object = JSONObject()
        object["isRestricted"] = .bool(isRestricted)
        if let error { object["error"] = LocalizedString.localized(["en": userMessage(of: error)]).json }
        if let name { object["name"] = name.json }
        object["rights"] = .object(JSONObject(["canCopy": .bool(rights.canCopy), "canPrint": .bool(rights.canPrint)]))
        return .object(object)
    }
}

/// The hrefs of the content-protection web service.
public enum ContentProtectionRoutes {
    public static let status = "/~readium/content-protection"
    public static let copy = "/~readium/rights/copy"
    public static let print = "/~readium/rights/print"

    /// The percent-decoded query parameters of `href`.
    static func query(of href: String) -> [String: String] {
        guard let mark = href.firstIndex(of: "?") else { return [:] }
        let query = Href.removingFragment(String(href[href.index(after: mark)...]))
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                let plusDecoded = String(text.map { $0 == "+" ? " " : $0 })
                return Href.percentDecoded(plusDecoded) ?? plusDecoded
            }
            result[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return result
    }
}

extension Publication {
    /// The content protection service, when the publication is protected.
    public var contentProtectionService: (any ContentProtectionService)? { findService((any ContentProtectionService).self) }
    /// Whether a content protection technology protects it.
    public var isProtected: Bool { contentProtectionService != nil }
    /// Whether its resources are locked.
    public var isRestricted: Bool { contentProtectionService?.isRestricted ?? false }
    /// Why it is restricted.
    public var protectionError: (any Error)? { contentProtectionService?.error }
    /// Why it is restricted, by case; nil when it is not.
    public var protectionRestriction: ProtectionRestriction? { contentProtectionService?.restriction }
    /// Credentials that can reopen it.
    public var credentials: String? { contentProtectionService?.credentials }
    /// Its copy and print rights.
    public var rights: any UserRights { contentProtectionService?.rights ?? UnrestrictedUserRights() }
    public var protectionLocalizedName: LocalizedString? { contentProtectionService?.name }
    /// The default translation of the protection's name.
    public var protectionName: String? { protectionLocalizedName?.string }
}
