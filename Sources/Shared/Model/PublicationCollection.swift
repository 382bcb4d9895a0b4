/// A named collection of links in a manifest beyond the core ones: `landmarks`, `pageList`,
/// lists of illustrations, guided navigation, extension collections.
public struct PublicationCollection: Sendable, Hashable {
    public var metadata: JSONObject
    public var links: [Link]
    public var subcollections: [String: [PublicationCollection]]

    public init(metadata: JSONObject = JSONObject(), links: [Link], subcollections: [String: [PublicationCollection]] = [:]) {
        self.metadata = metadata
        self.links = links
        self.subcollections = subcollections
    }

    /// Parses `[links…]` or `{"metadata": …, "links": […], …}`; nil for anything else, such as
    /// an array of strings, so that the caller can keep it as an unknown member.
    public init?(json: JSONValue?, warnings: (any WarningLogger)? = nil) {
        switch json {
        case .array(let elements):
            guard elements.allSatisfy({ $0.object != nil }) else { return nil }
            self.init(links: Link.array(json: json, warnings: warnings))
        case .object(let object):
            guard let links = object["links"]?.array else { return nil }
            var subcollections: [String: [PublicationCollection]] = [:]
            for member in object.members where member.key != "metadata" && member.key != "links" {
                if let collection = PublicationCollection(json: member.value, warnings: warnings) {
                    subcollections[member.key, default: []].append(collection)
                }
            }
            self.init(metadata: object["metadata"]?.object ?? JSONObject(),
                      links: links.compactMap { Link(json: $0, warnings: warnings) }, subcollections: subcollections)
        default:
            return nil
        }
    }

    public var json: JSONValue {
        if metadata.isEmpty, subcollections.isEmpty { return .array(links.map(\.json)) }
        var object = JSONObject()
        if !metadata.isEmpty { object["metadata"] = .object(metadata) }
        object["links"] = .array(links.map(\.json))
        for key in subcollections.keys.sorted() {
            let collections = subcollections[key]!
            object[key] = collections.count == 1 ? collections[0].json : .array(collections.map(\.json))
        }
        return .object(object)
    }
}
