import Shared

/// The names a person knows a publication's parts by: for each resource, the title of the
/// first table-of-contents entry that points into it. A search hit names its section by it
/// rather than by the resource's file name.
public struct SectionTitles: Sendable {
    /// Titles by resource path, percent-decoded (a table of contents may encode what the
    /// reading order does not, or the other way round).
    private let titles: [String: String]

    public init(tableOfContents: [Link]) {
        var titles: [String: String] = [:]
        func walk(_ links: [Link]) {
            for link in links {
                let path = Self.key(link.href)
                if titles[path] == nil, let title = link.title, title.contains(where: { !$0.isWhitespace }) {
                    titles[path] = title
                }
                walk(link.children)
            }
        }
        walk(tableOfContents)
        self.titles = titles
    }

    /// The title of the section `href` belongs to; nil when no entry of the table of contents
    /// points into it.
    public func title(of href: String) -> String? { titles[Self.key(href)] }

    /// What to call `href` when it has no title: its file name, percent-decoded, without the
    /// folders that say nothing to a reader.
    public static func fileLabel(_ href: String) -> String {
        let path = key(href)
        return path.split(separator: "/").last.map(String.init) ?? path
    }

    static func key(_ href: String) -> String {
        let path = Href.removingFragment(href)
        return Href.percentDecoded(path) ?? path
    }
}
