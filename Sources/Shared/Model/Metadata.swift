/// The metadata of a publication (RWPM `metadata`), with the members Lectern does not model
/// kept in ``otherMetadata``.
public struct Metadata: Sendable, Hashable {
    public var identifier: String?
    /// The `@type` (e.g. `http://schema.org/Book`, `http://schema.org/Audiobook`).
    public var type: String?
    /// Profiles the manifest conforms to, e.g. `https://readium.org/webpub-manifest/profiles/audiobook`.
    public var conformsTo: [String]
    public var localizedTitle: LocalizedString?
    public var localizedSubtitle: LocalizedString?
    public var localizedSortAs: LocalizedString?
    /// Modification date, as written.
    public var modified: String?
    /// Publication date, as written (real files hold partial or odd dates: `1851`, `0001-01-01`).
    public var published: String?
    public var languages: [String]
    public var subjects: [Subject]
    public var authors: [Contributor]
    public var translators: [Contributor]
    public var editors: [Contributor]
    public var artists: [Contributor]
    public var illustrators: [Contributor]
    public var letterers: [Contributor]
    public var pencilers: [Contributor]
    public var colorists: [Contributor]
    public var inkers: [Contributor]
    public var narrators: [Contributor]
    public var contributors: [Contributor]
    public var publishers: [Contributor]
    public var imprints: [Contributor]
    public var readingProgression: ReadingProgression
    public var description: String?
    /// Total duration in seconds (audiobooks).
    public var duration: Double?
    public var numberOfPages: Int?
    /// Collections and series the publication belongs to.
    public var belongsTo: [String: [Contributor]]
    /// Every other member, as found (rendition properties, accessibility, extensions…).
    public var otherMetadata: JSONObject

    public init(identifier: String? = nil, type: String? = nil, conformsTo: [String] = [],
                title: LocalizedString? = nil, subtitle: LocalizedString? = nil, sortAs: LocalizedString? = nil,
                modified: String? = nil, published: String? = nil, languages: [String] = [], subjects: [Subject] = [],
                authors: [Contributor] = [], translators: [Contributor] = [], editors: [Contributor] = [],
                artists: [Contributor] = [], illustrators: [Contributor] = [], letterers: [Contributor] = [],
                pencilers: [Contributor] = [], colorists: [Contributor] = [], inkers: [Contributor] = [],
                narrators: [Contributor] = [], contributors: [Contributor] = [], publishers: [Contributor] = [],
                imprints: [Contributor] = [], readingProgression: ReadingProgression = .auto,
                description: String? = nil, duration: Double? = nil, numberOfPages: Int? = nil,
                belongsTo: [String: [Contributor]] = [:], otherMetadata: JSONObject = JSONObject()) {
        self.identifier = identifier
        self.type = type
        self.conformsTo = conformsTo
        localizedTitle = title
        localizedSubtitle = subtitle
        localizedSortAs = sortAs
        self.modified = modified
        self.published = published
        self.languages = languages
        self.subjects = subjects
        self.authors = authors
        self.translators = translators
        self.editors = editors
        self.artists = artists
        self.illustrators = illustrators
        self.letterers = letterers
        self.pencilers = pencilers
        self.colorists = colorists
        self.inkers = inkers
        self.narrators = narrators
        self.contributors = contributors
        self.publishers = publishers
        self.imprints = imprints
        self.readingProgression = readingProgression
        self.description = description
        self.duration = duration
        self.numberOfPages = numberOfPages
        self.belongsTo = belongsTo
        self.otherMetadata = otherMetadata
    }

    /// The default translation of the title.
    public var title: String? { localizedTitle?.string }
    /// The default translation of the subtitle.
    public var subtitle: String? { localizedSubtitle?.string }

    /// The reading progression, resolving `auto` from the main language (Arabic, Hebrew,
    /// Persian, Urdu… are right to left).
    public var effectiveReadingProgression: ReadingProgression {
        if readingProgression != .auto { return readingProgression }
        let primary = languages.first?.split(separator: "-").first.map { $0.lowercased() }
        if let primary, ["ar", "fa", "he", "ur", "yi", "ps", "sd", "ug", "dv", "ckb"].contains(primary) { return .rtl }
        return .ltr
    }

    /// The roles that have their own members, keyed by RWPM member name.
    static let contributorKeys: [(String, WritableKeyPath<Metadata, [Contributor]> & Sendable)] = [
        ("author", \.authors), ("translator", \.translators), ("editor", \.editors), ("artist", \.artists),
        ("illustrator", \.illustrators), ("letterer", \.letterers), ("penciler", \.pencilers),
        ("colorist", \.colorists), ("inker", \.inkers), ("narrator", \.narrators),
        ("contributor", \.contributors), ("publisher", \.publishers), ("imprint", \.imprints),
    ]

    static let modelledKeys: Set<String> = Set(contributorKeys.map(\.0)).union([
        "identifier", "@type", "conformsTo", "title", "subtitle", "sortAs", "modified", "published",
        "language", "subject", "readingProgression", "description", "duration", "numberOfPages", "belongsTo",
    ])

    /// Parses an RWPM metadata object. A missing title becomes a warning, not a failure.
    public init(json: JSONValue?, warnings: (any WarningLogger)? = nil) {
        let object = json?.object ?? JSONObject()
        self.init()
        identifier = object["identifier"]?.string
        type = object["@type"]?.string
        conformsTo = object["conformsTo"]?.strings ?? []
        localizedTitle = LocalizedString(json: object["title"])
        if localizedTitle == nil { warnings.log("the manifest has no title", severity: .minor) }
        localizedSubtitle = LocalizedString(json: object["subtitle"])
        localizedSortAs = LocalizedString(json: object["sortAs"])
        modified = object["modified"]?.string
        published = object["published"]?.string ?? object["published"]?.int.map(String.init)
        languages = object["language"]?.strings ?? []
        subjects = Subject.array(json: object["subject"])
        for (key, path) in Metadata.contributorKeys {
            self[keyPath: path] = Contributor.array(json: object[key], warnings: warnings)
        }
        readingProgression = object["readingProgression"]?.string.flatMap(ReadingProgression.init) ?? .auto
        description = object["description"]?.string
        duration = ExternalNumbers.duration(object["duration"]?.double)
        numberOfPages = object["numberOfPages"]?.int.flatMap { $0 > 0 ? $0 : nil }
        for member in object["belongsTo"]?.object?.members ?? [] {
            belongsTo[member.key] = Contributor.array(json: member.value, warnings: warnings)
        }
        otherMetadata = JSONObject(object.members.filter { !Metadata.modelledKeys.contains($0.key) })
    }

    public var json: JSONValue {
        var object = JSONObject()
        object.set("@type", type.map(JSONValue.string))
        object.set("identifier", identifier.map(JSONValue.string))
        if !conformsTo.isEmpty {
            object["conformsTo"] = conformsTo.count == 1 ? .string(conformsTo[0]) : .array(conformsTo.map(JSONValue.string))
        }
        object.set("title", localizedTitle?.json)
        object.set("subtitle", localizedSubtitle?.json)
        object.set("sortAs", localizedSortAs?.json)
        object.set("modified", modified.map(JSONValue.string))
        object.set("published", published.map(JSONValue.string))
        if !languages.isEmpty {
            object["language"] = languages.count == 1 ? .string(languages[0]) : .array(languages.map(JSONValue.string))
        }
        if !subjects.isEmpty { object["subject"] = .array(subjects.map(\.json)) }
        for (key, path) in Metadata.contributorKeys where !self[keyPath: path].isEmpty {
            object[key] = .array(self[keyPath: path].map(\.json))
        }
        if readingProgression != .auto { object["readingProgression"] = .string(readingProgression.rawValue) }
        object.set("description", description.map(JSONValue.string))
        object.set("duration", duration.map(JSONValue.double))
        object.set("numberOfPages", numberOfPages.map(JSONValue.int))
        if !belongsTo.isEmpty {
            object["belongsTo"] = .object(JSONObject(belongsTo.keys.sorted().map {
                .init(key: $0, value: .array(belongsTo[$0]!.map(\.json)))
            }))
        }
        for member in otherMetadata.members where object[member.key] == nil { object[member.key] = member.value }
        return .object(object)
    }
}
