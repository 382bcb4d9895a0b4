import FoundationEssentials
import LibXML
import Shared

/// Reads an EPUB 2 NCX: the `navMap` (table of contents) and the `pageList`.
struct NCXParser {
    let tableOfContents: [Link]
    let pageList: [Link]

    /// - Parameters:
    ///   - href: the href of the NCX, against which its links resolve.
    ///   - onlyPageList: whether only the `pageList` is wanted (the navigation document gave the
    ///     table of contents): a well-formed NCX is then read element after element and only its
    ///     `pageList` kept as a tree, not its `navMap` of every chapter (#28: a 297 KB NCX of
    ///     2,014 points was parsed whole after the first page just to find it has no page list).
    init(data: Data, href: String, warnings: (any WarningLogger)?, onlyPageList: Bool = false) {
        if onlyPageList, let pageList = Self.streamedPageList(data, href: href) {
            tableOfContents = []
            self.pageList = pageList
            return
        }
        guard let document = try? XMLDocument(xml: data) else {
            warnings?.log(Warning("the NCX cannot be parsed", severity: .moderate, href: href))
            tableOfContents = []
            pageList = []
            return
        }
        let root = document.root
        var truncated = false
        tableOfContents = root.firstChild(named: "navMap").map {
            Self.points(in: $0, named: "navPoint", base: href, depth: 0, truncated: &truncated)
        } ?? []
        pageList = root.firstChild(named: "pageList").map {
            Self.points(in: $0, named: "pageTarget", base: href, depth: 0, truncated: &truncated)
        } ?? []
        if truncated {
            warnings?.log(Warning("the NCX is nested deeper than \(EPUBLimits.maxNavigationDepth) levels; deeper entries were dropped",
                                  severity: .moderate, href: href))
        }
    }

    /// The `navPoint`/`pageTarget` children of `element`. Points without a label keep a nil
    /// title; points without a target keep the href `#` when they have children.
    private static func points(in element: XMLElement, named name: String, base: String, depth: Int,
                               truncated: inout Bool) -> [Link] {
        guard depth < EPUBLimits.maxNavigationDepth else {
            truncated = true
            return []
        }
        return element.children(named: name).compactMap { point in
            let children = name == "navPoint"
                ? points(in: point, named: name, base: base, depth: depth + 1, truncated: &truncated) : []
            let title = point.firstChild(named: "navLabel")?.firstChild(named: "text")?.normalizedTextOrNil
            let href = point.firstChild(named: "content")?.attribute("src")?.trimmed.nilIfEmpty
                .flatMap { EPUBHref.resolve($0, against: base) }
            guard href != nil || !children.isEmpty else { return nil }
            return Link(href: href ?? "#", title: title, children: children)
        }
    }

    /// The `pageList` of a well-formed NCX, streamed (empty without one); nil when the NCX is
    /// not well-formed, which the tree parser then reads, repairing what it can.
    private static func streamedPageList(_ data: Data, href: String) -> [Link]? {
        let read = try? XMLStreamReader.reading(data) { reader -> [Link]? in
            var pageList: [Link] = []
            var found = false
            while reader.nextElement() {
                guard reader.depth == 1, !found, reader.localName == "pageList" else { continue }
                found = true
                guard let element = reader.copyOfCurrentElement()?.root.firstChild(named: "pageList") else { return nil }
                var truncated = false
                pageList = points(in: element, named: "pageTarget", base: href, depth: 0, truncated: &truncated)
            }
            return reader.isMalformed ? nil : pageList
        }
        return read ?? nil
    }
}
