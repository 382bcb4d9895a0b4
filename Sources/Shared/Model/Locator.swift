/// A precise location in a publication, as stored for reading positions and bookmarks.
public struct Locator: Sendable, Hashable {
    /// Where in a resource.
    public struct Locations: Sendable, Hashable {
        /// Fragment identifiers, e.g. `section-2`, `t=12.5`, `page=3`.
        public var fragments: [String]
        /// Progression in the resource, 0…1.
        public var progression: Double?
        /// Progression in the whole publication, 0…1.
        public var totalProgression: Double?
        /// Position index in the publication (1-based), see the positions list.
        public var position: Int?
        public var otherLocations: JSONObject

        public init(fragments: [String] = [], progression: Double? = nil, totalProgression: Double? = nil,
                    position: Int? = nil, otherLocations: JSONObject = JSONObject()) {
            self.fragments = fragments
            self.progression = progression
            self.totalProgression = totalProgression
            self.position = position
            self.otherLocations = otherLocations
        }

        public init(json: JSONValue?) {
            let object = json?.object ?? JSONObject()
            fragments = object["fragments"]?.strings ?? (object["fragment"]?.strings ?? [])
            progression = object["progression"]?.double.flatMap { (0...1).contains($0) ? $0 : nil }
            totalProgression = object["totalProgression"]?.double.flatMap { (0...1).contains($0) ? $0 : nil }
            position = object["position"]?.int.flatMap { $0 > 0 ? $0 : nil }
            let known: Set<String> = ["fragments", "fragment", "progression", "totalProgression", "position"]
            otherLocations = JSONObject(object.members.filter { !known.contains($0.key) })
        }

        public var json: JSONValue {
            var object = JSONObject()
            if !fragments.isEmpty { object["fragments"] = .array(fragments.map(JSONValue.string)) }
            object.set("progression", progression.map(JSONValue.double))
            object.set("totalProgression", totalProgression.map(JSONValue.double))
            object.set("position", position.map(JSONValue.int))
            for member in otherLocations.members { object[member.key] = member.value }
            return .object(object)
        }
    }

    /// Text around the location, to find it again when the content changes.
    public struct Text: Sendable, Hashable {
        public var before: String?
        public var highlight: String?
        public var after: String?

        public init(before: String? = nil, highlight: String? = nil, after: String? = nil) {
            self.before = before
            self.highlight = highlight
            self.after = after
        }

        public init(json: JSONValue?) {
            before = json?["before"]?.string
            highlight = json?["highlight"]?.string
            after = json?["after"]?.string
        }

        public var json: JSONValue {
            var object = JSONObject()
            object.set("before", before.map(JSONValue.string))
            object.set("highlight", highlight.map(JSONValue.string))
            object.set("after", after.map(JSONValue.string))
            return .object(object)
        }
    }

    public var href: String
    public var mediaType: MediaType?
    public var title: String?
    public var locations: Locations
    public var text: Text

    public init(href: String, mediaType: MediaType?, title: String? = nil,
                locations: Locations = Locations(), text: Text = Text()) {
        self.href = href
        self.mediaType = mediaType
        self.title = title
        self.locations = locations
        self.text = text
    }

    /// Parses a Locator object; nil without `href`.
    public init?(json: JSONValue?) {
        guard let object = json?.object, let href = object["href"]?.string else { return nil }
        self.href = href
        mediaType = object["type"]?.string.flatMap(MediaType.init)
        title = object["title"]?.string
        locations = Locations(json: object["locations"])
        text = Text(json: object["text"])
    }

    /// Parses a serialised Locator.
    public init?(jsonString: String) {
        guard let json = try? JSONParser.parse(jsonString) else { return nil }
        self.init(json: json)
    }

    public var json: JSONValue {
        var object = JSONObject()
        object["href"] = .string(href)
        object["type"] = .string(mediaType?.string ?? "")
        object.set("title", title.map(JSONValue.string))
        object["locations"] = locations.json
        if text != Text() { object["text"] = text.json }
        return .object(object)
    }

    /// The compact JSON of this locator.
    public var jsonString: String { JSONWriter().string(json) }
}
