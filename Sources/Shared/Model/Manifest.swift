/// A Readium Web Publication Manifest: the whole description of a publication.
public struct Manifest: Sendable {
    public var context: [String]
    public var metadata: Metadata
    public var links: [Link]
    /// The resources read in order (EPUB spine, audiobook tracks, comic pages).
    public var readingOrder: [Link]
    /// The other resources of the publication.
    public var resources: [Link]
    /// The table of contents; reading it builds a deferred navigation (``DeferredNavigation``).
    public var tableOfContents: [Link] {
        get { deferredNavigation?.collections.tableOfContents ?? storedTableOfContents }
        set { settleNavigation(); storedTableOfContents = newValue }
    }
    /// Other collections: `landmarks`, `pageList`, extensions; reading them builds a deferred
    /// navigation.
    public var subcollections: [String: [PublicationCollection]] {
        get { deferredNavigation?.collections.subcollections ?? storedSubcollections }
        set { settleNavigation(); storedSubcollections = newValue }
    }
    private var storedTableOfContents: [Link]
    private var storedSubcollections: [String: [PublicationCollection]]
    /// The navigation a parser left to be read on first use; nil once settled or when there
    /// was none.
    private var deferredNavigation: DeferredNavigation?
    /// Top-level members that are neither modelled nor collections of links, kept as found.
    public var otherMembers: JSONObject

    public init(context: [String] = [], metadata: Metadata = Metadata(), links: [Link] = [],
                readingOrder: [Link] = [], resources: [Link] = [], tableOfContents: [Link] = [],
                subcollections: [String: [PublicationCollection]] = [:], otherMembers: JSONObject = JSONObject()) {
        self.context = context
        self.metadata = metadata
        self.links = links
        self.readingOrder = readingOrder
        self.resources = resources
        self.storedTableOfContents = tableOfContents
        self.storedSubcollections = subcollections
        self.otherMembers = otherMembers
    }

    /// A manifest whose table of contents and other navigation collections are read from
    /// `navigation` when first asked for (an EPUB's navigation document and NCX).
    public init(context: [String] = [], metadata: Metadata = Metadata(), links: [Link] = [],
                readingOrder: [Link] = [], resources: [Link] = [], navigation: DeferredNavigation) {
        self.init(context: context, metadata: metadata, links: links, readingOrder: readingOrder, resources: resources)
        deferredNavigation = navigation
    }

    /// Whether the navigation collections are known without building them (always, unless a
    /// parser deferred them and nobody has asked yet).
    public var isNavigationBuilt: Bool { deferredNavigation?.isBuilt ?? true }

    /// Copies a deferred navigation into the manifest's own storage before it changes.
    private mutating func settleNavigation() {
        guard let navigation = deferredNavigation?.collections else { return }
        storedTableOfContents = navigation.tableOfContents
        storedSubcollections = navigation.subcollections
        deferredNavigation = nil
    }

    /// The known top-level members; anything else that holds links becomes a subcollection.
    private static let coreKeys: Set<String> = ["@context", "metadata", "links", "readingOrder", "spine", "resources", "toc"]

    /// Parses a manifest tolerantly: unknown members are kept, invalid links skipped with a
    /// warning, the legacy `spine` accepted for `readingOrder`.
    ///
    /// - Parameter base: href the relative hrefs are resolved against — `manifest.json` for a
    ///   packaged manifest, the manifest's URL for a remote one. When nil, the `self` link is
    ///   used if it is absolute, else hrefs are taken as relative to the package root.
    public init(json: JSONValue, base: String? = nil, warnings: (any WarningLogger)? = nil) throws(ManifestError) {
        guard let object = json.object else { throw .notAnObject }
        guard object["metadata"]?.object != nil else { throw .missingMember("metadata") }
        let links = Link.array(json: object["links"], warnings: warnings)
        let selfHref = links.first(withRel: "self")?.href
        let base = base ?? selfHref.flatMap { Href.isAbsoluteURL($0) ? $0 : nil } ?? ""
        func resolved(_ list: [Link]) -> [Link] { list.map { $0.resolvingHrefs(against: base) } }

        context = object["@context"]?.strings ?? []
        metadata = Metadata(json: object["metadata"], warnings: warnings)
        // `self` and other absolute links stay as they are; relative ones are resolved.
        self.links = resolved(links)
        var order = object["readingOrder"]
        if order == nil, let spine = object["spine"] {
            warnings.log("the manifest uses the legacy `spine` member for `readingOrder`", severity: .minor)
            order = spine
        }
        readingOrder = resolved(Link.array(json: order, warnings: warnings))
        if order == nil { warnings.log("the manifest has no reading order", severity: .major) }
        resources = resolved(Link.array(json: object["resources"], warnings: warnings))
        storedTableOfContents = resolved(Link.array(json: object["toc"], warnings: warnings))
        storedSubcollections = [:]
        otherMembers = JSONObject()
        for member in object.members where !Manifest.coreKeys.contains(member.key) {
            if var collection = PublicationCollection(json: member.value, warnings: warnings) {
                collection.links = resolved(collection.links)
                storedSubcollections[member.key, default: []].append(collection)
            } else {
                otherMembers.members.append(member)
            }
        }
        for link in readingOrder where link.mediaType == nil {
            warnings.log("a reading order item has no media type", severity: .minor, href: link.href)
        }
    }

    /// Parses the UTF-8 bytes of a manifest.
    public init(data: some Collection<UInt8>, base: String? = nil, warnings: (any WarningLogger)? = nil) throws(ManifestError) {
        let json: JSONValue
        do { json = try JSONParser.parse(data) } catch { throw .invalidJSON(error) }
        try self.init(json: json, base: base, warnings: warnings)
    }

    public var json: JSONValue {
        var object = JSONObject()
        if !context.isEmpty { object["@context"] = context.count == 1 ? .string(context[0]) : .array(context.map(JSONValue.string)) }
        object["metadata"] = metadata.json
        object["links"] = .array(links.map(\.json))
        object["readingOrder"] = .array(readingOrder.map(\.json))
        if !resources.isEmpty { object["resources"] = .array(resources.map(\.json)) }
        if !tableOfContents.isEmpty { object["toc"] = .array(tableOfContents.map(\.json)) }
        for key in subcollections.keys.sorted() {
            let collections = subcollections[key]!
            object[key] = collections.count == 1 ? collections[0].json : .array(collections.map(\.json))
        }
        for member in otherMembers.members where object[member.key] == nil { object[member.key] = member.value }
        return .object(object)
    }

    /// Whether the manifest declares conformance to `profile` (e.g. ``Profile/audiobook``).
    public func conforms(to profile: String) -> Bool {
        metadata.conformsTo.contains(profile)
    }

    /// The first link with `href` among the reading order, resources and links.
    public func link(withHREF href: String) -> Link? {
        readingOrder.first(withHREF: href) ?? resources.first(withHREF: href) ?? links.first(withHREF: href)
    }

    /// The first link with `rel` among the reading order, resources and links.
    public func link(withRel rel: String) -> Link? {
        readingOrder.first(withRel: rel) ?? resources.first(withRel: rel) ?? links.first(withRel: rel)
    }

    /// The links of the first subcollection with this role (`landmarks`, `pageList`…).
    public func subcollectionLinks(_ role: String) -> [Link] {
        subcollections[role]?.first?.links ?? []
    }

    /// Profiles a manifest may conform to.
    public enum Profile {
        public static let audiobook = "https://readium.org/webpub-manifest/profiles/audiobook"
        public static let divina = "https://readium.org/webpub-manifest/profiles/divina"
        public static let epub = "https://readium.org/webpub-manifest/profiles/epub"
        public static let pdf = "https://readium.org/webpub-manifest/profiles/pdf"
    }
}

/// Why a manifest could not be parsed.
public enum ManifestError: Error, Sendable, CustomStringConvertible {
    case invalidJSON(JSONError)
    case notAnObject
    case missingMember(String)

    public var description: String {
        switch self {
        case .invalidJSON(let error): "the manifest is not valid JSON (\(error))"
        case .notAnObject: "the manifest is not a JSON object"
        case .missingMember(let name): "the manifest has no `\(name)`"
        }
    }
}

extension Link {
    /// This link with its href (and its children's and alternates') resolved against `base`.
    public func resolvingHrefs(against base: String) -> Link {
        var copy = self
        if !templated { copy.href = Href.resolve(href, against: base) }
        copy.alternates = alternates.map { $0.resolvingHrefs(against: base) }
        copy.children = children.map { $0.resolvingHrefs(against: base) }
        return copy
    }
}

// Written by hand because a deferred navigation compares by what it holds, not by identity.
extension Manifest: Hashable {
    public static func == (lhs: Manifest, rhs: Manifest) -> Bool {
        lhs.context == rhs.context && lhs.metadata == rhs.metadata && lhs.links == rhs.links
            && lhs.readingOrder == rhs.readingOrder && lhs.resources == rhs.resources
            && lhs.tableOfContents == rhs.tableOfContents && lhs.subcollections == rhs.subcollections
            && lhs.otherMembers == rhs.otherMembers
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(context)
        hasher.combine(metadata)
        hasher.combine(links)
        hasher.combine(readingOrder)
        hasher.combine(resources)
        hasher.combine(tableOfContents)
        hasher.combine(subcollections)
        hasher.combine(otherMembers)
    }
}
