
/// What a Readium Web Publication Manifest describes, read from its JSON without building a
/// full ``Manifest``: sniffing must tolerate what the parser would reject.
struct ManifestProfile {
    /// The family of publication the manifest describes.
    enum Family: Equatable {
        case audiobook, divina, pdf, webpub
    }

    let family: Family
    /// Some link carries `properties.encrypted.scheme` = the LCP scheme.
    let hasLCPEncryptedLinks: Bool
    /// The family was declared (`conformsTo`, `@type`, the `self` link type) rather than
    /// inferred from the reading order.
    let isDeclared: Bool

    static let lcpScheme = "http://readium.org/2014/01/lcp"

    /// Whether `json` is an RWPM: an object with a `metadata` object and a `readingOrder`
    /// (or the legacy `spine`) array.
    static func isManifest(_ json: JSONObject) -> Bool {
        json["metadata"]?.object != nil && readingOrder(of: json) != nil
    }

    static func readingOrder(of json: JSONObject) -> [JSONValue]? {
        json["readingOrder"]?.array ?? json["spine"]?.array
    }

    init(_ json: JSONObject) {
        let metadata = json["metadata"]?.object ?? JSONObject()
        let conformsTo = metadata["conformsTo"]?.strings ?? []
        let types = (metadata["@type"]?.strings ?? []).map { $0.lowercased() }
        let selfType = (json["links"]?.array ?? [])
            .first { $0["rel"]?.strings.contains("self") ?? false }?["type"]?.string.flatMap(MediaType.init)
        let readingOrder = ManifestProfile.readingOrder(of: json) ?? []
        let itemTypes = readingOrder.map(ManifestProfile.mediaType(ofLink:))

        if conformsTo.contains(Manifest.Profile.audiobook) {
            (family, isDeclared) = (.audiobook, true)
        } else if conformsTo.contains(Manifest.Profile.divina) {
            (family, isDeclared) = (.divina, true)
        } else if conformsTo.contains(Manifest.Profile.pdf) {
            (family, isDeclared) = (.pdf, true)
        } else if types.contains("http://schema.org/audiobook") || types.contains("https://schema.org/audiobook") {
            (family, isDeclared) = (.audiobook, true)
        } else if selfType?.matches(.readiumAudiobookManifest) ?? false {
            (family, isDeclared) = (.audiobook, true)
        } else if selfType?.matches(.divinaManifest) ?? false {
            (family, isDeclared) = (.divina, true)
        } else if !itemTypes.isEmpty, itemTypes.allSatisfy({ $0?.isAudio ?? false }) {
            (family, isDeclared) = (.audiobook, false)
        } else if !itemTypes.isEmpty, itemTypes.allSatisfy({ $0?.isBitmap ?? false }) {
            (family, isDeclared) = (.divina, false)
        } else if !itemTypes.isEmpty, itemTypes.allSatisfy({ $0?.matches(.pdf) ?? false }) {
            (family, isDeclared) = (.pdf, false)
        } else {
            (family, isDeclared) = (.webpub, selfType?.matches(.readiumWebPubManifest) ?? false)
        }
        hasLCPEncryptedLinks = ManifestProfile.containsLCPLink(json)
    }

    /// The link's `type`, else the media type of its href's extension.
    static func mediaType(ofLink link: JSONValue) -> MediaType? {
        if let type = link["type"]?.string, let mediaType = MediaType(type) { return mediaType }
        guard let href = link["href"]?.string, let ext = FormatHints.fileExtension(of: Href.removingFragment(href))
        else { return nil }
        return MediaType.of(fileExtension: ext)
    }

    /// Whether any link of the manifest, at any depth (`alternates`, `children`), declares LCP
    /// encryption.
    static func containsLCPLink(_ json: JSONObject) -> Bool {
        let collections = ["readingOrder", "spine", "resources", "links", "toc"]
        return collections.contains { key in
            (json[key]?.array ?? []).contains(where: isOrContainsLCPLink)
        }
    }

    private static func isOrContainsLCPLink(_ link: JSONValue) -> Bool {
        if link["properties"]?["encrypted"]?["scheme"]?.string == lcpScheme { return true }
        for key in ["alternates", "alternate", "children"] {
            if (link[key]?.array ?? []).contains(where: isOrContainsLCPLink) { return true }
        }
        return false
    }
}
