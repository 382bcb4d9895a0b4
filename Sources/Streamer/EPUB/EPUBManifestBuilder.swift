import Shared

/// Turns the OPF manifest and spine into the reading order and the resources.
///
/// Follows Readium: linear spine items make the reading order, in spine order; every other
/// manifest item — non-linear spine items included (`linear="no"`, e.g. a notes document) —
/// is a resource, in manifest order.
struct EPUBManifestBuilder {
    let package: OPFPackage
    /// The id of the EPUB 2 cover image (`<meta name="cover" content="…">`).
    let coverID: String?
    /// The encryptions of `encryption.xml`, by package path.
    let encryptions: [String: Encryption]
    let warnings: (any WarningLogger)?
    /// `media:duration` of media overlays, by manifest item id (set on their links).
    var overlayDurations: [String: Double] = [:]

    private var packagePath: String { Href.path(of: package.href) ?? package.href }

    func build() throws(PublicationParseError) -> (readingOrder: [Link], resources: [Link]) {
        reportQuirks()
        let items = package.items
        // Each link is made when the reading order or the resources take it, not all first
        // into an array beside them (#28: 2,014 links at the opening's peak); the media
        // types' warnings still come first, in manifest order.
        for item in items { reportMediaType(of: item) }
        var indexByID: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            guard let id = item.id else { continue }
            if indexByID[id] == nil { indexByID[id] = index } else {
                warnings?.log(Warning("two manifest items have the id \"\(id)\"; the first is used", severity: .minor,
                                      href: packagePath))
            }
        }
        // Alternates are the fallbacks' plain links. Few items have fallbacks or overlays:
        // theirs are kept aside, the others' links made when taken.
        var changed: [Int: Link] = [:]
        for (index, item) in items.enumerated() {
            let chain = fallbackChain(from: item, indexByID: indexByID)
            let hasDuration = item.id.map { overlayDurations[$0] != nil } ?? false
            guard !chain.isEmpty || item.mediaOverlay != nil || hasDuration else { continue }
            var full = link(for: item)
            full.alternates = chain.map { link(for: items[$0]) }
            addMediaOverlay(to: &full, item: item, indexByID: indexByID)
            changed[index] = full
        }
        func withAlternates(_ index: Int) -> Link { changed[index] ?? link(for: items[index]) }

        var readingOrder: [Link] = []
        readingOrder.reserveCapacity(package.itemrefs.count)
        var inSpine = Set<Int>()
        var nonLinear: [Int: Link] = [:]
        for itemref in package.itemrefs {
            guard let index = indexByID[itemref.idref] else {
                warnings?.log(Warning("the spine refers to \"\(itemref.idref)\", which is not in the manifest; skipped",
                                      severity: .moderate, href: packagePath))
                continue
            }
            guard inSpine.insert(index).inserted else {
                warnings?.log(Warning("the spine lists \"\(itemref.idref)\" twice; the repetition is skipped",
                                      severity: .minor, href: packagePath))
                continue
            }
            var link = withAlternates(index)
            if Href.isAbsoluteURL(link.href) {
                warnings?.log(Warning("the spine item \"\(itemref.idref)\" is a remote resource", severity: .minor, href: link.href))
            }
            for member in EPUBPresentation.linkProperties(itemref.properties).members {
                link.properties[member.key] = member.value
            }
            if itemref.isLinear { readingOrder.append(link) } else { nonLinear[index] = link }
        }

        var resources: [Link] = []
        var seen = Set(readingOrder.map { $0.path ?? $0.href })
        for index in items.indices {
            if inSpine.contains(index), nonLinear[index] == nil { continue }
            var resource = nonLinear[index] ?? withAlternates(index)
            // A fragment designates a place for navigation, not a resource.
            resource.href = Href.removingFragment(resource.href)
            guard seen.insert(resource.path ?? resource.href).inserted else { continue }
            resources.append(resource)
        }

        if readingOrder.isEmpty {
            return try readingOrderFallback(resources)
        }
        return (readingOrder, resources)
    }

    /// Without a usable spine, the (X)HTML resources in manifest order are the best guess.
    private func readingOrderFallback(_ resources: [Link]) throws(PublicationParseError) -> (readingOrder: [Link], resources: [Link]) {
        let documents = resources.filter { $0.mediaType?.isHTML == true && !$0.hasRel("contents") }
        guard !documents.isEmpty else {
            throw .invalid(href: packagePath, reason: "the spine lists no content document to read")
        }
        warnings?.log(Warning("the spine lists no content document; the manifest's documents are read in manifest order",
                              severity: .major, href: packagePath))
        let readingOrder = documents
        let rest = resources.filter { resource in !documents.contains { $0.href == resource.href } }
        return (readingOrder, rest)
    }

    /// Warns about an item whose media type is missing or not valid.
    private func reportMediaType(of item: OPFPackage.Item) {
        if let declared = item.mediaType {
            if MediaType(declared) == nil {
                warnings?.log(Warning("the media type \"\(declared)\" is not valid", severity: .minor, href: item.href))
            }
        } else {
            warnings?.log(Warning("a manifest item has no media-type", severity: .minor, href: item.href))
        }
    }

    /// The link of an item (its media type's problems are reported by ``reportMediaType(of:)``).
    private func link(for item: OPFPackage.Item) -> Link {
        var link = Link(href: item.href)
        link.mediaType = item.mediaType.flatMap(MediaType.init)
        if link.mediaType == nil, let path = link.path, let ext = path.split(separator: ".").last, path.contains(".") {
            link.mediaType = MediaType.of(fileExtension: String(ext))
        }
        if item.properties.contains("nav") { link.rels.append("contents") }
        if item.properties.contains("cover-image") || (item.id != nil && item.id == coverID) { link.rels.append("cover") }
        link.properties = Properties(EPUBPresentation.linkProperties(item.properties))
        if let path = link.path, let encryption = encryptions[path] {
            link.properties.encryption = encryption
        }
        return link
    }

    /// The manifest indices of the item's fallbacks (`item@fallback`, followed), without cycles.
    private func fallbackChain(from item: OPFPackage.Item, indexByID: [String: Int]) -> [Int] {
        var chain: [Int] = []
        var visited = Set<String>([item.id].compactMap { $0 })
        var next = item.fallback
        while let id = next, chain.count < EPUBLimits.maxFallbackChain {
            guard visited.insert(id).inserted else {
                warnings?.log(Warning("the fallback chain of \"\(item.id ?? item.rawHref)\" loops", severity: .minor,
                                      href: packagePath))
                break
            }
            guard let index = indexByID[id] else {
                warnings?.log(Warning("the fallback \"\(id)\" is not in the manifest", severity: .minor, href: packagePath))
                break
            }
            chain.append(index)
            next = package.items[index].fallback
        }
        return chain
    }

    /// Hrefs that are legal but unusual enough to be worth knowing about.
    private func reportQuirks() {
        let withFragments = package.items.filter { Href.fragment(of: $0.rawHref) != nil }
        if let first = withFragments.first {
            warnings?.log(Warning("\(withFragments.count) manifest item href(s) carry a #fragment (e.g. \"\(first.rawHref)\"); "
                                  + "the fragment is kept for navigation and ignored to find the resource",
                                  severity: .minor, href: packagePath))
        }
        for item in package.items {
            if item.rawHref.contains("%") {
                warnings?.log(Warning("the manifest href \"\(item.rawHref)\" is percent-encoded", severity: .minor, href: item.href))
            }
            if item.rawHref.unicodeScalars.contains(where: { !$0.isASCII }) {
                warnings?.log(Warning("the manifest href \"\(item.rawHref)\" holds non-ASCII characters", severity: .minor,
                                      href: item.href))
            }
        }
    }
}
