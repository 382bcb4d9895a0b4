import Shared

/// The table of contents as the reader looks things up in it: each chapter file's title and
/// the entries flattened in reading order.
///
/// Built off the main actor after the first page is painted: an EPUB's navigation is read on
/// first use (``DeferredNavigation``), and a book with thousands of entries must not make the
/// person wait for it (issue #15). Until it is built the status line shows the chapter's own
/// title.
struct TableOfContentsIndex: Sendable {
    /// An entry of the table of contents.
    struct Entry: Sendable, Hashable {
        let href: String
        /// The href without its fragment: the chapter file.
        let path: String
        let fragment: String?
        let title: String
    }

    /// Every entry, depth first, as the table of contents lists them.
    let entries: [Entry]
    /// The title of the first titled entry pointing into each chapter file (by path).
    let chapterTitles: [String: String]

    init(_ tableOfContents: [Link]) {
        var entries: [Entry] = []
        var titles: [String: String] = [:]
        func walk(_ links: [Link]) {
            for link in links {
                let path = Href.removingFragment(link.href)
                let fragment = Href.fragment(of: link.href)
                entries.append(Entry(href: link.href, path: path, fragment: fragment?.isEmpty == true ? nil : fragment,
                                     title: link.title ?? ""))
                if titles[path] == nil, let title = link.title, !title.isEmpty { titles[path] = title }
                walk(link.children)
            }
        }
        walk(tableOfContents)
        self.entries = entries
        chapterTitles = titles
    }

    /// An index with no entries, while the table of contents is not read yet.
    static let empty = TableOfContentsIndex([])
}
