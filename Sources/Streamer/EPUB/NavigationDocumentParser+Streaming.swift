import FoundationEssentials
import LibXML
import Shared

extension NavigationDocumentParser {
    /// The navigations of a well-formed navigation document, read element after element: each
    /// entry of a nav's list (`ol > li`) is made a tree of its own and read as the tree parser
    /// reads it, so the document is never a tree at once (#28: the bench's 148 KB navigation of
    /// 2,014 entries was a 1.4 MB tree right after the first page). Nil when the document is
    /// not well-formed: the tree parsers (XML, then HTML) read it as before.
    static func streamed(_ data: Data, href: String, warnings: (any WarningLogger)?) -> [String: [Link]]? {
        var navigations: [String: [Link]] = [:]
        var truncated = false
        let read = try? XMLStreamReader.reading(data) { reader -> Bool in
            // The nav being read: its depth, types, entries, and whether its first `ol` is open.
            var nav: (depth: Int, types: [String], links: [Link], listSeen: Bool, inList: Bool)?
            func endNav() {
                guard let done = nav else { return }
                for type in done.types where navigations[type] == nil { navigations[type] = done.links }
                nav = nil
            }
            while reader.nextElement() {
                let depth = reader.depth
                if let current = nav, depth <= current.depth { endNav() }
                guard var current = nav else {
                    if reader.localName == "nav" {
                        // (A plain `epub:type` name, which the tree looks at next, is the HTML
                        // parser's: a well-formed XML document cannot have one.)
                        let value = reader.attribute("type", namespace: EPUBNamespace.ops) ?? ""
                        nav = (depth, value.tokens, [], false, false)
                    }
                    continue
                }
                if depth == current.depth + 1 {
                    current.inList = !current.listSeen && reader.localName == "ol"
                    current.listSeen = current.listSeen || current.inList
                } else if depth == current.depth + 2, current.inList, reader.localName == "li" {
                    guard let item = reader.copyOfCurrentElement()?.root.firstChild(named: "li") else { return false }
                    if let link = link(for: item, base: href, depth: 0, truncated: &truncated) { current.links.append(link) }
                }
                nav = current
            }
            endNav()
            return !reader.isMalformed
        }
        guard read == true else { return nil }
        if truncated { warnings?.log(truncationWarning(href: href)) }
        return navigations
    }
}
