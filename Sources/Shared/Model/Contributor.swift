/// A person or organisation credited by a publication (author, translator, publisher…).
public struct Contributor: Sendable, Hashable {
    public var localizedName: LocalizedString
    public var identifier: String?
    public var localizedSortAs: LocalizedString?
    /// MARC relator roles (`aut`, `trl`…) or other role names.
    public var roles: [String]
    /// Position in a series, for `belongsTo` collections.
    public var position: Double?
    public var links: [Link]

    public init(name: LocalizedString, identifier: String? = nil, sortAs: LocalizedString? = nil,
                roles: [String] = [], position: Double? = nil, links: [Link] = []) {
        localizedName = name
        self.identifier = identifier
        localizedSortAs = sortAs
        self.roles = roles
        self.position = position
        self.links = links
    }

    /// The default translation of the name.
    public var name: String { localizedName.string }

    /// Parses `"Name"`, `{"name": …}` or a localized-name object.
    public init?(json: JSONValue?, warnings: (any WarningLogger)? = nil) {
        switch json {
        case .string(let name):
            self.init(name: .nonlocalized(name))
        case .object(let object):
            guard let name = LocalizedString(json: object["name"]) else {
                warnings.log("a contributor has no name and was ignored", severity: .minor)
                return nil
            }
            self.init(name: name, identifier: object["identifier"]?.string,
                      sortAs: LocalizedString(json: object["sortAs"]), roles: object["role"]?.strings ?? [],
                      position: ExternalNumbers.seriesPosition(object["position"]?.double), links: Link.array(json: object["links"], warnings: warnings))
        default:
            return nil
        }
    }

    /// Parses one contributor or an array of them.
    public static func array(json: JSONValue?, warnings: (any WarningLogger)? = nil) -> [Contributor] {
        if let array = json?.array { return array.compactMap { Contributor(json: $0, warnings: warnings) } }
        return Contributor(json: json, warnings: warnings).map { [$0] } ?? []
    }

    public var json: JSONValue {
        if identifier == nil, localizedSortAs == nil, roles.isEmpty, position == nil, links.isEmpty,
           case .nonlocalized(let name) = localizedName {
            return .string(name)
        }
        var object = JSONObject()
        object["name"] = localizedName.json
        object.set("identifier", identifier.map(JSONValue.string))
        object.set("sortAs", localizedSortAs?.json)
        if roles.count == 1 { object["role"] = .string(roles[0]) }
        if roles.count > 1 { object["role"] = .array(roles.map(JSONValue.string)) }
        object.set("position", position.map(JSONValue.double))
        if !links.isEmpty { object["links"] = .array(links.map(\.json)) }
        return .object(object)
    }
}

/// A subject of a publication.
public struct Subject: Sendable, Hashable {
    public var localizedName: LocalizedString
    public var sortAs: String?
    /// The scheme of `code`, e.g. `BISAC`.
    public var scheme: String?
    public var code: String?

    public init(name: LocalizedString, sortAs: String? = nil, scheme: String? = nil, code: String? = nil) {
        localizedName = name
        self.sortAs = sortAs
        self.scheme = scheme
        self.code = code
    }

    public var name: String { localizedName.string }

    public init?(json: JSONValue?) {
        switch json {
        case .string(let name): self.init(name: .nonlocalized(name))
        case .object(let object):
            guard let name = LocalizedString(json: object["name"]) else { return nil }
            self.init(name: name, sortAs: object["sortAs"]?.string, scheme: object["scheme"]?.string,
                      code: object["code"]?.string)
        default: return nil
        }
    }

    public static func array(json: JSONValue?) -> [Subject] {
        if let array = json?.array { return array.compactMap { Subject(json: $0) } }
        return Subject(json: json).map { [$0] } ?? []
    }

    public var json: JSONValue {
        if sortAs == nil, scheme == nil, code == nil, case .nonlocalized(let name) = localizedName { return .string(name) }
        var object = JSONObject()
        object["name"] = localizedName.json
        object.set("sortAs", sortAs.map(JSONValue.string))
        object.set("scheme", scheme.map(JSONValue.string))
        object.set("code", code.map(JSONValue.string))
        return .object(object)
    }
}
