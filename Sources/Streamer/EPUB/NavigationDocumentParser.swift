import FoundationEssentials
import LibXML
import Shared

/// Reads an EPUB 3 navigation document: the `toc`, `page-list`, `landmarks` and list-of
/// navs (`loi`, `lot`, `loa`, `lov`), each a nested `ol` of `li` entries.
struct NavigationDocumentParser {
    /// The link of each navigation type found, e.g. `["toc": […], "page-list": […]]`.
    let navigations: [String: [Link]]

    /// - Parameter href: the href of the navigation document, against which its links resolve.
    init(data: Data, href: String, warnings: (any WarningLogger)?) {
        if let streamed = Self.streamed(data, href: href, warnings: warnings) {
            self.init(navigations: streamed)
        } else {
            self.init(tree: data, href: href, warnings: warnings)
        }
    }

    private init(navigations: [String: [Link]]) {
        self.navigations = navigations
    }

    /// The navigations read from the document's whole tree.
    init(tree data: Data, href: String, warnings: (any WarningLogger)?) {
        // Navigation documents are XHTML, but some hold HTML entities (`&nbsp;` without a DTD)
        // or are tag soup (unclosed `li`): XML recovery would nest such entries wrongly, so
        // anything not well-formed goes to the HTML parser, which knows HTML's rules.
        let document = (try? XMLDocument(xml: data, recover: false)) ?? (try? XMLDocument(html: data))
        guard let document else {
            warnings?.log(Warning("the navigation document cannot be parsed", severity: .moderate, href: href))
            navigations = [:]
            return
        }
        var navigations: [String: [Link]] = [:]
        var truncated = false
        for nav in Self.navElements(in: document.root) {
            let links = Self.links(in: nav, base: href, depth: 0, truncated: &truncated)
            for type in Self.types(of: nav) where navigations[type] == nil {
                navigations[type] = links
            }
        }
        if truncated { warnings?.log(Self.truncationWarning(href: href)) }
        self.navigations = navigations
    }

    static func truncationWarning(href: String) -> Warning {
        Warning("the navigation is nested deeper than \(EPUBLimits.maxNavigationDepth) levels; deeper entries were dropped",
                severity: .moderate, href: href)
    }

    /// The `nav` elements, in document order (nested navs are not expected, so not searched).
    private static func navElements(in root: XMLElement) -> [XMLElement] {
        var result: [XMLElement] = []
        var pending = [root]
        // Iterative walk: hostile documents can nest deeply.
        while let element = pending.popLast() {
            if element.localName == "nav" {
                result.append(element)
                continue
            }
            pending += element.children.reversed()
        }
        return result
    }

    /// The `epub:type` tokens of a nav. The HTML parser keeps `epub:type` as a plain name.
    static func types(of nav: XMLElement) -> [String] {
        let value = nav.attribute("type", namespace: EPUBNamespace.ops) ?? nav.attribute("epub:type") ?? ""
        return value.tokens
    }

    /// The entries of the first `ol` of `element`.
    private static func links(in element: XMLElement, base: String, depth: Int, truncated: inout Bool) -> [Link] {
        guard let list = element.firstChild(named: "ol") else { return [] }
        guard depth < EPUBLimits.maxNavigationDepth else {
            truncated = true
            return []
        }
        return list.children(named: "li").compactMap { link(for: $0, base: base, depth: depth, truncated: &truncated) }
    }

    /// An entry: its `a` (linked) or `span` (heading) label, and its nested list. Entries with
    /// neither a label nor children are dropped (EPUB 3.3 §nav: zero-length labels and unlinked
    /// leaves are ignored); a heading with children gets the href `#`, as in Readium, since a
    /// link must have an href.
    static func link(for item: XMLElement, base: String, depth: Int, truncated: inout Bool) -> Link? {
        let label = item.children.first { $0.localName == "a" || $0.localName == "span" }
        let children = links(in: item, base: base, depth: depth + 1, truncated: &truncated)
        let title = label.flatMap { $0.normalizedTextOrNil ?? $0.attribute("title")?.trimmed.nilIfEmpty }
        let href = label?.localName == "a"
            ? label?.attribute("href")?.trimmed.nilIfEmpty.flatMap { EPUBHref.resolve($0, against: base) }
            : nil
        guard title != nil || !children.isEmpty, href != nil || !children.isEmpty else { return nil }
        var link = Link(href: href ?? "#", title: title, children: children)
        if let types = label?.attribute("type", namespace: EPUBNamespace.ops)?.tokens, !types.isEmpty {
            // Landmarks name what they point to (`bodymatter`, `toc`, `cover`…).
            link.rels = types
        }
        return link
    }
}
