/// A link to a resource of a publication or elsewhere (RWPM `Link` object).
public struct Link: Sendable, Hashable {
    /// URL reference to the resource: relative to the package root or absolute (see ``Href``).
    public var href: String
    /// Whether `href` is a URI template (RFC 6570).
    public var templated: Bool
    /// Media type of the resource.
    public var mediaType: MediaType?
    public var title: String?
    /// Relations, e.g. `cover`, `contents`, `self`.
    public var rels: [String]
    public var properties: Properties
    /// Height and width in pixels, for images.
    public var height: Int?
    public var width: Int?
    /// Duration in seconds, for audio and video.
    public var duration: Double?
    /// Bit rate in kilobits per second.
    public var bitrate: Double?
    /// BCP 47 languages of the resource.
    public var languages: [String]
    /// The same resource in other formats or qualities.
    public var alternates: [Link]
    /// Resources contained in this one, e.g. the sections of a table of contents entry.
    public var children: [Link]
    /// The members Lectern does not model (extensions, misspellings such as `alternates`),
    /// kept so that a manifest can be written back without losing them.
    public var otherMembers: JSONObject

    public init(href: String, mediaType: MediaType? = nil, templated: Bool = false, title: String? = nil,
                rels: [String] = [], properties: Properties = Properties(), height: Int? = nil, width: Int? = nil,
                duration: Double? = nil, bitrate: Double? = nil, languages: [String] = [],
                alternates: [Link] = [], children: [Link] = [], otherMembers: JSONObject = JSONObject()) {
        self.href = href
        self.mediaType = mediaType
        self.templated = templated
        self.title = title
        self.rels = rels
        self.properties = properties
        self.height = height
        self.width = width
        self.duration = duration
        self.bitrate = bitrate
        self.languages = languages
        self.alternates = alternates
        self.children = children
        self.otherMembers = otherMembers
    }

    /// The members of a Link object that have their own properties.
    static let modelledKeys: Set<String> = [
        "href", "templated", "type", "title", "rel", "properties", "height", "width", "duration", "bitrate",
        "language", "alternate", "children",
    ]

    /// The media type as a string, for the JSON `type` member.
    public var type: String? { mediaType?.string }

    /// The package path of the resource (percent-decoded, no fragment), or nil for absolute URLs.
    public var path: String? { Href.path(of: href) }

    /// Whether `rels` holds `rel`.
    public func hasRel(_ rel: String) -> Bool { rels.contains(rel) }

    /// The encryption of the resource, from its properties.
    public var encryption: Encryption? { properties.encryption }

    /// Parses a Link object; nil (with a warning) when it has no `href`.
    public init?(json: JSONValue?, warnings: (any WarningLogger)? = nil) {
        guard let object = json?.object else {
            warnings.log("a link is not a JSON object", severity: .minor)
            return nil
        }
        guard let href = object["href"]?.string else {
            warnings.log("a link has no href and was ignored", severity: .minor)
            return nil
        }
        self.href = href
        templated = object["templated"]?.bool ?? false
        mediaType = object["type"]?.string.flatMap(MediaType.init)
        title = object["title"]?.string
        rels = object["rel"]?.strings ?? []
        properties = Properties(object["properties"]?.object ?? JSONObject())
        height = object["height"]?.int.flatMap { $0 > 0 ? $0 : nil }
        width = object["width"]?.int.flatMap { $0 > 0 ? $0 : nil }
        duration = ExternalNumbers.duration(object["duration"]?.double)
        bitrate = ExternalNumbers.bitrate(object["bitrate"]?.double)
        languages = object["language"]?.strings ?? []
        alternates = Link.array(json: object["alternate"], warnings: warnings)
        children = Link.array(json: object["children"], warnings: warnings)
        otherMembers = JSONObject(object.members.filter { !Link.modelledKeys.contains($0.key) })
    }

    /// Parses an array of Link objects, skipping invalid ones.
    public static func array(json: JSONValue?, warnings: (any WarningLogger)? = nil) -> [Link] {
        (json?.array ?? []).compactMap { Link(json: $0, warnings: warnings) }
    }

    public var json: JSONValue {
        var object = JSONObject()
        object["href"] = .string(href)
        object.set("type", type.map(JSONValue.string))
        if templated { object["templated"] = .bool(true) }
        object.set("title", title.map(JSONValue.string))
        if rels.count == 1 { object["rel"] = .string(rels[0]) }
        if rels.count > 1 { object["rel"] = .array(rels.map(JSONValue.string)) }
        if !properties.isEmpty { object["properties"] = .object(properties.otherProperties) }
        object.set("height", height.map(JSONValue.int))
        object.set("width", width.map(JSONValue.int))
        object.set("duration", duration.map(JSONValue.double))
        object.set("bitrate", bitrate.map(JSONValue.double))
        if languages.count == 1 { object["language"] = .string(languages[0]) }
        if languages.count > 1 { object["language"] = .array(languages.map(JSONValue.string)) }
        if !alternates.isEmpty { object["alternate"] = .array(alternates.map(\.json)) }
        if !children.isEmpty { object["children"] = .array(children.map(\.json)) }
        for member in otherMembers.members where object[member.key] == nil { object[member.key] = member.value }
        return .object(object)
    }

    /// Expands a templated href with `parameters` (RFC 6570 simple and form-style query
    /// expressions, the forms found in publications and License Status Documents).
    public func expanded(with parameters: [String: String]) -> Link {
        guard templated else { return self }
        var copy = self
        copy.href = URITemplate(href).expand(parameters)
        copy.templated = false
        return copy
    }
}

extension Array where Element == Link {
    /// The first link whose href designates the same resource as `href` (fragments ignored),
    /// searching children and alternates too.
    public func first(withHREF href: String) -> Link? {
        let target = Href.path(of: href) ?? Href.removingFragment(href)
        func matches(_ link: Link) -> Bool { (link.path ?? Href.removingFragment(link.href)) == target }
        for link in self where matches(link) { return link }
        for link in self {
            if let found = link.children.first(withHREF: href) ?? link.alternates.first(withHREF: href) { return found }
        }
        return nil
    }

    /// The first link with this relation.
    public func first(withRel rel: String) -> Link? { first { $0.hasRel(rel) } }

    /// Every link with this relation.
    public func filter(byRel rel: String) -> [Link] { filter { $0.hasRel(rel) } }

    /// The index of the link designating `href`.
    public func firstIndex(withHREF href: String) -> Int? {
        let target = Href.path(of: href) ?? Href.removingFragment(href)
        return firstIndex { ($0.path ?? Href.removingFragment($0.href)) == target }
    }

    /// Whether every link's media type satisfies `predicate` (false when empty).
    public func allAreOf(_ predicate: (MediaType) -> Bool) -> Bool {
        !isEmpty && allSatisfy { $0.mediaType.map(predicate) ?? false }
    }
}
