import Shared

/// The table of contents popup: the nested entries flattened with their depth, the entry of
/// the current chapter selected.
public struct TOCState: Sendable {
    public struct Entry: Sendable, Hashable {
        public let title: String
        public let href: String
        public let depth: Int
    }

    public let entries: [Entry]
    public var list: ListState

    public init(tableOfContents: [Link], currentHref: String?, visibleRows: Int = 10) {
        var entries: [Entry] = []
        func walk(_ links: [Link], depth: Int) {
            for link in links {
                let title = link.title.map { $0.isEmpty ? link.href : $0 } ?? link.href
                entries.append(Entry(title: title, href: link.href, depth: depth))
                walk(link.children, depth: depth + 1)
            }
        }
        walk(tableOfContents, depth: 0)
        self.entries = entries
        // The entry itself when the href names one (with its fragment), else the chapter's first.
        let current = currentHref.map(Href.removingFragment)
        let exact = currentHref.flatMap { href in entries.firstIndex { $0.href == href } }
        let firstOfCurrent = exact ?? entries.firstIndex { Href.removingFragment($0.href) == current } ?? 0
        list = ListState(count: entries.count, selection: firstOfCurrent, visibleRows: visibleRows)
    }

    public var selected: Entry? { entries.isEmpty ? nil : entries[list.selection] }
}
