
/// Names a JSON document from its keys: LCP license, OPDS authentication document, W3C Web
/// Publication manifest, OPDS 2 feed, Readium Web Publication Manifest (webpub, audiobook,
/// Divina), OPDS 2 publication, or plain JSON.
///
/// The order matters: an OPDS 2 publication has `metadata` and `links` like a manifest but no
/// reading order, and must not be offered as something readable.
enum JSONFormatSniffer {
    static func format(of json: JSONValue) -> Format {
        guard let object = json.object else { return Format(kind: .json) }

        if ["id", "issued", "provider", "encryption"].allSatisfy({ object[$0] != nil }),
           object["encryption"]?.object != nil {
            return Format(kind: .lcpl)
        }
        if object["authentication"]?.array != nil, object["id"] != nil, object["title"] != nil {
            return Format(kind: .opdsAuthentication)
        }
        if object["@context"]?.strings.contains(where: { $0.hasPrefix("https://www.w3.org/ns/pub-context") }) ?? false {
            return Format(kind: .w3cWPUBManifest)
        }
        let hasMetadata = object["metadata"]?.object != nil
        let hasReadingOrder = ManifestProfile.readingOrder(of: object) != nil
        if hasMetadata, !hasReadingOrder,
           ["navigation", "publications", "groups", "catalogs"].contains(where: { object[$0]?.array != nil }) {
            return Format(kind: .opds2Feed)
        }
        if ManifestProfile.isManifest(object) {
            let profile = ManifestProfile(object)
            let kind: Format.Kind = switch profile.family {
            case .audiobook: .audiobookManifest
            case .divina: .divinaManifest
            case .pdf, .webpub: .webpubManifest
            }
            return Format(kind: kind, isLCPProtected: profile.hasLCPEncryptedLinks)
        }
        if hasMetadata, (object["links"]?.array ?? []).contains(where: isAcquisitionLink) {
            return Format(kind: .opds2Publication)
        }
        return Format(kind: .json)
    }

    private static func isAcquisitionLink(_ link: JSONValue) -> Bool {
        (link["rel"]?.strings ?? []).contains { $0.hasPrefix("http://opds-spec.org/acquisition") }
    }
}
