import LibXML
import Shared

/// KOReader's numbering of an EPUB's chapters: `DocFragment[N]` is the N-th `itemref` of the
/// package's spine, linear or not (crengine's `epubfmt.cpp` makes a `DocFragment` for every
/// spine item since its DOM version 20240114), while Lectern's reading order holds the linear
/// items only. So a `DocFragment` index is not a reading order index plus one when a book has
/// `linear="no"` items (a cover, a contents page, notes).
public struct KOReaderSpine: Sendable {
    /// The package paths of the spine items, in spine order.
    public let paths: [String]

    /// The spine of `publication`'s package document, read from `META-INF/container.xml` and
    /// the OPF; without one (a Web Publication, a package that cannot be read), the reading
    /// order stands for the spine.
    public init(publication: Publication) {
        paths = Self.spinePaths(publication) ?? publication.readingOrder.compactMap { Href.path(of: $0.href) }
    }

    /// The 1-based `DocFragment` index of `link`'s resource; nil when it is not in the spine.
    public func fragment(of link: Link) -> Int? {
        guard let path = Href.path(of: link.href) else { return nil }
        return paths.firstIndex(of: path).map { $0 + 1 }
    }

    /// The link of the reading order (or, for a non-linear item, of the resources) that
    /// `DocFragment[fragment]` names.
    public func link(ofFragment fragment: Int, in publication: Publication) -> Link? {
        guard fragment >= 1, fragment <= paths.count else { return nil }
        let path = paths[fragment - 1]
        return (publication.readingOrder + publication.resources).first { Href.path(of: $0.href) == path }
    }

    private static func spinePaths(_ publication: Publication) -> [String]? {
        guard let container = read(publication, "META-INF/container.xml"),
              let rootfile = container.root.descendants(named: "rootfile").first?.attribute("full-path"),
              let packagePath = Href.path(of: rootfile.trimmed),
              let package = read(publication, packagePath) else { return nil }
        var hrefByID: [String: String] = [:]
        for item in package.root.descendants(named: "item") {
            if let id = item.attribute("id"), let href = item.attribute("href"), hrefByID[id] == nil {
                hrefByID[id] = href.trimmed
            }
        }
        let paths = package.root.descendants(named: "itemref").compactMap { itemref -> String? in
            guard let id = itemref.attribute("idref"), let href = hrefByID[id.trimmed] else { return nil }
            return Href.path(of: Href.resolve(href, against: packagePath))
        }
        return paths.isEmpty ? nil : paths
    }

    private static func read(_ publication: Publication, _ path: String) -> XMLDocument? {
        let resource = publication.get(Link(href: Href.fromPath(path)))
        defer { resource.close() }
        guard case .success(let bytes) = resource.read() else { return nil }
        return try? XMLDocument(xml: bytes)
    }
}
