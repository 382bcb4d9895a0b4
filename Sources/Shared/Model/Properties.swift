/// The `properties` of a link: free-form, with accessors for the known members.
public struct Properties: Sendable, Hashable {
    /// Every member, including those Lectern does not know.
    public var otherProperties: JSONObject

    public init(_ otherProperties: JSONObject = JSONObject()) {
        self.otherProperties = otherProperties
    }

    public var isEmpty: Bool { otherProperties.isEmpty }

    public subscript(key: String) -> JSONValue? {
        get { otherProperties[key] }
        set { otherProperties[key] = newValue }
    }

    /// How the resource is encrypted, if it is.
    public var encryption: Encryption? {
        get { Encryption(json: otherProperties["encrypted"]) }
        set { otherProperties["encrypted"] = newValue?.json }
    }

    /// EPUB/RWPM `contains` (e.g. `mathml`, `svg`, `remote-resources`).
    public var contains: [String] {
        get { otherProperties["contains"]?.strings ?? [] }
        set { otherProperties["contains"] = newValue.isEmpty ? nil : .array(newValue.map(JSONValue.string)) }
    }

    /// `page` of a fixed-layout spread: `left`, `right` or `center`.
    public var page: String? {
        get { otherProperties["page"]?.string }
        set { otherProperties["page"] = newValue.map(JSONValue.string) }
    }

    /// Presentation layout override: `fixed` or `reflowable`.
    public var layout: String? {
        get { otherProperties["layout"]?.string }
        set { otherProperties["layout"] = newValue.map(JSONValue.string) }
    }
}
