import Shared

/// An audiobook manifest as its bytes and their JSON tree, with the Feedbooks extensions it
/// carries. The tree keeps member order and number literals, so the signed form can be rebuilt
/// from it byte for byte; the typed ``Manifest`` model is never used for that (it drops members).
struct FeedbooksManifest: Sendable {
    /// The manifest as read, for canonicalisation.
    let bytes: [UInt8]
    let json: JSONValue
    let metadata: JSONObject
    /// Where the manifest was read from (its URL for a remote one), to resolve relative links.
    let location: String?

    /// Parses `bytes`; nil when they are not a JSON object with a `metadata` object (the parser
    /// will say why the publication cannot be opened).
    init?(bytes: [UInt8], location: String?) {
        guard let json = try? JSONParser.parse(bytes), let metadata = json["metadata"]?.object else { return nil }
        self.bytes = bytes
        self.json = json
        self.metadata = metadata
        self.location = location
    }

    /// `metadata["…/audiobooks/signature"]`.
    var signature: JSONValue? { metadata[FeedbooksVocabulary.signatureKey] }

    /// `metadata["…/audiobooks/rights"]`.
    var rights: JSONValue? { metadata[FeedbooksVocabulary.rightsKey] }

    /// The tracks: `readingOrder`, or the legacy `spine` of Cantook manifests.
    var tracks: [JSONValue] {
        (json["readingOrder"] ?? json["spine"])?.array ?? []
    }

    /// How many tracks are downloaded with a Feedbooks bearer token.
    var accessRestrictedTrackCount: Int {
        tracks.filter { Self.isAccessRestricted($0["properties"]?["encrypted"]) }.count
    }

    /// Whether `encrypted` is the Feedbooks access restriction (a scheme without an algorithm:
    /// nothing is encrypted, the server wants a token).
    static func isAccessRestricted(_ encrypted: JSONValue?) -> Bool {
        encrypted?["scheme"]?.string == FeedbooksVocabulary.accessRestrictionScheme
    }

    /// The License Status Document URL: the first link whose `rel` includes `license` and whose
    /// type is the LSD type, not templated (Android's rule), resolved against the manifest's
    /// URL or its absolute `self` link; nil when there is none or it is not HTTP(S).
    var licenseStatusURL: String? {
        let links = json["links"]?.array ?? []
        let base = location.flatMap { Href.isHTTP($0) ? $0 : nil }
            ?? links.first { $0["rel"]?.strings.contains("self") ?? false }?["href"]?.string.flatMap { Href.isHTTP($0) ? $0 : nil }
        for link in links {
            guard link["rel"]?.strings.contains("license") ?? false,
                  MediaType(link["type"]?.string ?? "")?.essence == FeedbooksVocabulary.licenseStatusMediaType,
                  link["templated"]?.bool != true,
                  let href = link["href"]?.string else { continue }
            let url = Href.isAbsoluteURL(href) ? href : base.map { Href.resolve(href, against: $0) }
            return url.flatMap { Href.isHTTP($0) ? $0 : nil }
        }
        return nil
    }

    /// Whether the manifest uses the Feedbooks vocabulary at all (otherwise the protection
    /// leaves it alone).
    var carriesFeedbooksVocabulary: Bool {
        signature != nil || rights != nil || accessRestrictedTrackCount > 0
    }
}
