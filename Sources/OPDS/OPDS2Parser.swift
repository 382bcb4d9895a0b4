import Shared

/// Reads OPDS 2.0 catalogs (JSON) through the project's JSON layer.
public enum OPDS2Parser {
    /// How deep `indirectAcquisition` may nest before the rest is ignored.
    static let maxIndirectDepth = 8

    public static func parse(_ bytes: [UInt8], url: String) throws(OPDSError) -> OPDSFeed {
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch { throw .malformed(error.description) }
        guard let root = json.object else { throw .notACatalog("the JSON document is not an object") }
        guard let metadata = root["metadata"]?.object else {
            throw .notACatalog("the JSON document has no \"metadata\"")
        }
        let resolver = CatalogURL(base: url)
        var feed = OPDSFeed(
            version: .opds2, url: url,
            metadata: OPDSFeedMetadata(
                identifier: text(metadata["identifier"]),
                title: text(metadata["title"]) ?? "",
                subtitle: text(metadata["subtitle"]),
                modified: text(metadata["modified"]),
                numberOfItems: metadata["numberOfItems"]?.int,
                itemsPerPage: metadata["itemsPerPage"]?.int,
                currentPage: metadata["currentPage"]?.int),
            links: links(root["links"], resolver: resolver),
            navigation: links(root["navigation"], resolver: resolver),
            publications: publications(root["publications"], resolver: resolver))
        for group in root["groups"]?.array ?? [] {
            guard let object = group.object else { continue }
            feed.groups.append(OPDSGroup(
                title: text(object["metadata"]?["title"]) ?? "",
                links: links(object["links"], resolver: resolver),
                navigation: links(object["navigation"], resolver: resolver),
                publications: publications(object["publications"], resolver: resolver)))
        }
        for facet in root["facets"]?.array ?? [] {
            guard let object = facet.object else { continue }
            feed.facets.append(OPDSFacetGroup(title: text(object["metadata"]?["title"]) ?? "",
                                              links: links(object["links"], resolver: resolver)))
        }
        return feed
    }

    /// A string, or the first translation of a localized string (`{"en": "…", "fr": "…"}`).
    static func text(_ value: JSONValue?) -> String? {
        if let string = value?.string { return CatalogText.clean(string) }
        if let object = value?.object {
            return CatalogText.clean(object["en"]?.string ?? object.members.lazy.compactMap(\.value.string).first)
        }
        if let number = value?.int { return String(number) }
        return nil
    }

    /// Names of contributors: a string, an object with a `name`, or an array of either.
    static func names(_ value: JSONValue?) -> [String] {
        guard let value else { return [] }
        if let array = value.array { return array.flatMap { names($0) } }
        if let name = text(value) { return [name] }
        if let name = text(value["name"]) { return [name] }
        return []
    }

    /// A lone OPDS 2 publication document (`application/opds-publication+json`, what a borrow
    /// link answers), read from `url`.
    static func publication(_ bytes: [UInt8], url: String) -> OPDSPublication? {
        guard let json = try? JSONParser.parse(bytes) else { return nil }
        return publications(.array([json]), resolver: CatalogURL(base: url)).first
    }

    private static func publications(_ value: JSONValue?, resolver: CatalogURL) -> [OPDSPublication] {
        (value?.array ?? []).compactMap { item in
            guard let object = item.object, let metadata = object["metadata"]?.object else { return nil }
            var languages = metadata["language"]?.strings ?? []
            if let language = metadata["language"]?.string { languages = [language] }
            return OPDSPublication(
                metadata: OPDSPublicationMetadata(
                    identifier: text(metadata["identifier"]),
                    title: text(metadata["title"]) ?? "",
                    authors: names(metadata["author"]),
                    publishers: names(metadata["publisher"]),
                    summary: text(metadata["description"]),
                    languages: languages.compactMap { CatalogText.clean($0) },
                    subjects: names(metadata["subject"]),
                    published: text(metadata["published"]),
                    modified: text(metadata["modified"])),
                links: links(object["links"], resolver: resolver),
                images: links(object["images"], resolver: resolver))
        }
    }

    static func links(_ value: JSONValue?, resolver: CatalogURL) -> [OPDSLink] {
        (value?.array ?? []).compactMap { link($0, resolver: resolver) }
    }

    private static func link(_ value: JSONValue, resolver: CatalogURL) -> OPDSLink? {
        guard let object = value.object else { return nil }
        let templated = object["templated"]?.bool ?? false
        guard let href = resolver.resolve(object["href"]?.string) else { return nil }
        var rels: [String] = []
        if let rel = object["rel"]?.string { rels = rel.split(separator: " ").map(String.init) }
        rels += (object["rel"]?.array ?? []).compactMap { $0.string.flatMap { CatalogText.clean($0) } }
        var properties = OPDSLinkProperties()
        if let json = object["properties"]?.object {
            properties.numberOfItems = json["numberOfItems"]?.int
            if let price = json["price"]?.object, let amount = price["value"]?.double {
                properties.prices = [OPDSPrice(value: amount, currency: text(price["currency"]) ?? "")]
            }
            properties.indirectAcquisitions = indirect(json["indirectAcquisition"], depth: 0)
            properties.lcpHashedPassphrase = json["lcp_hashed_passphrase"]?.string
            properties.lcpHashedPassphrase = json["lcp_hashed_passphrase"]?.string
            if let availability = json["availability"]?.object, let state = text(availability["state"]) {
                properties.availability = OPDSAvailability(state: state, since: text(availability["since"]),
                                                           until: text(availability["until"]))
            }
        }
        return OPDSLink(href: href, type: text(object["type"]), rels: rels, title: text(object["title"]),
                        templated: templated, properties: properties)
    }

    private static func indirect(_ value: JSONValue?, depth: Int) -> [OPDSIndirectAcquisition] {
        guard depth < maxIndirectDepth else { return [] }
        let items = value?.array ?? (value?.object != nil ? [value!] : [])
        return items.compactMap { item in
            guard let type = text(item["type"]) else { return nil }
            return OPDSIndirectAcquisition(type: type, children: indirect(item["child"], depth: depth + 1))
        }
    }
}
