import Shared

/// Points a packaged manifest's absolute URLs at the package's own copies.
///
/// A package (`.audiobook`, `.lcpa`, `.webpub`…) is read offline, yet its manifest may name
/// its files by the URLs they had on the publisher's server
/// (`http://publisher.example/audio/track.mp3` for the packaged `audio/track.mp3`), with or
/// without a `self` link saying where the manifest lived. Such a link is read from the package
/// when the package holds the file: the href relative to the `self` link's folder first, else
/// the longest tail of the URL's path that names an entry. Links to files the package does not
/// hold stay remote.
struct PackagedHrefLocalizer {
    /// The package's entry paths.
    let paths: Set<String>
    /// The folder URL of the manifest's absolute `self` link, ending in `/`.
    let selfFolder: String?

    init(paths: Set<String>, manifest: Manifest) {
        self.paths = paths
        let selfHref = manifest.links.first(withRel: "self")?.href
        if let selfHref, Href.isHTTP(selfHref), let slash = Href.removingFragment(selfHref).lastIndex(of: "/") {
            selfFolder = String(selfHref[...slash])
        } else {
            selfFolder = nil
        }
    }

    /// The manifest with every absolute href the package holds made relative to the package.
    func localized(_ manifest: Manifest) -> Manifest {
        var manifest = manifest
        manifest.readingOrder = manifest.readingOrder.map(localized)
        manifest.resources = manifest.resources.map(localized)
        manifest.tableOfContents = manifest.tableOfContents.map(localized)
        manifest.links = manifest.links.map { $0.hasRel("self") ? $0 : localized($0) }
        manifest.subcollections = manifest.subcollections.mapValues { $0.map(localized) }
        return manifest
    }

    private func localized(_ collection: PublicationCollection) -> PublicationCollection {
        var collection = collection
        collection.links = collection.links.map(localized)
        collection.subcollections = collection.subcollections.mapValues { $0.map(localized) }
        return collection
    }

    private func localized(_ link: Link) -> Link {
        var link = link
        if let path = packagedPath(of: link.href) {
            let fragment = Href.fragment(of: link.href).map { "#" + $0 } ?? ""
            link.href = Href.fromPath(path) + fragment
        }
        link.children = link.children.map(localized)
        link.alternates = link.alternates.map(localized)
        return link
    }

    /// The entry an absolute HTTP `href` names in the package, if any.
    func packagedPath(of href: String) -> String? {
        guard Href.isHTTP(href) else { return nil }
        let target = Href.removingFragment(href)
        if let selfFolder, target.hasPrefix(selfFolder),
           let path = Href.path(of: String(target.dropFirst(selfFolder.count))), paths.contains(path) {
            return path
        }
        guard let urlPath = Self.urlPath(of: target) else { return nil }
        var components = urlPath.split(separator: "/", omittingEmptySubsequences: true)
        while !components.isEmpty {
            let candidate = components.joined(separator: "/")
            if paths.contains(candidate) { return candidate }
            components.removeFirst()
        }
        return nil
    }

    /// The percent-decoded path of an absolute URL, without query or fragment.
    static func urlPath(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let rest = url[url.index(after: colon)...]
        guard rest.hasPrefix("//") else { return nil }
        let afterAuthority = rest.dropFirst(2).drop { $0 != "/" }
        return Href.path(of: String(afterAuthority))
    }
}
