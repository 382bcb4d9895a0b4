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

    /// The web service's routes, advertised in the publication's links; answered by
    /// ``RightsWebService`` wherever the publication is served.
    public var links: [Link] {
        [
            Link(href: ContentProtectionRoutes.status, mediaType: MediaType("application/vnd.readium.content-protection+json")),
            Link(href: ContentProtectionRoutes.copy + "{?text,peek}", mediaType: MediaType("application/vnd.readium.rights.copy+json"), templated: true),
            Link(href: ContentProtectionRoutes.print + "{?pageCount,peek}", mediaType: MediaType("application/vnd.readium.rights.print+json"), templated: true),
        ]
    }
}

/// The hrefs of the content-protection web service.
public enum ContentProtectionRoutes {
    public static let status = "/~readium/content-protection"
    public static let copy = "/~readium/rights/copy"
    public static let print = "/~readium/rights/print"
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
