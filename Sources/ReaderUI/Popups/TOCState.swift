import Shared

/// The contents popup: the nested entries flattened with their depth, the entry of the
/// current chapter selected; `p` shows the page list and `L` the landmarks instead, when the
/// book has them (#29 item 8), `c` the contents again.
public struct TOCState: Sendable {
    public struct Entry: Sendable, Hashable {
        public let title: String
        public let href: String
        public let depth: Int
    }

    /// What the popup lists.
    public enum Kind: Sendable, Hashable, CaseIterable {
        case contents, pages, landmarks

        /// The popup's title.
        public var title: String {
            switch self {
            case .contents: "Contents"
            case .pages: "Pages"
            case .landmarks: "Landmarks"
            }
        }

        /// The key that shows it.
        public var key: Character {
            switch self {
            case .contents: "c"
            case .pages: "p"
            case .landmarks: "L"
            }
        }
    }

    public private(set) var kind = Kind.contents
    public private(set) var entries: [Entry]
    public var list: ListState
    private let lists: [Kind: [Entry]]
    /// The selection of each list, kept while another is shown.
    private var selections: [Kind: Int]
    private let visibleRows: Int

    /// - Parameters:
    ///   - currentHref: the place shown, selected in each list: the entry with that href, else
    ///     the first of its file.
    ///   - currentPage: the printed page shown (its label), selected in the page list.
    public init(tableOfContents: [Link], pageList: [Link] = [], landmarks: [Link] = [], currentHref: String?,
                currentPage: String? = nil, visibleRows: Int = 10) {
        var lists: [Kind: [Entry]] = [.contents: Self.flatten(tableOfContents)]
        if !pageList.isEmpty { lists[.pages] = Self.flatten(pageList) }
        if !landmarks.isEmpty { lists[.landmarks] = Self.flatten(landmarks) }
        self.lists = lists
        self.visibleRows = visibleRows
        var selections: [Kind: Int] = [:]
        for (kind, entries) in lists {
            // The entry itself when the href names one (with its fragment), else the chapter's first.
            let current = currentHref.map(Href.removingFragment)
            let exact = currentHref.flatMap { href in entries.firstIndex { $0.href == href } }
            var selection = exact ?? entries.firstIndex { Href.removingFragment($0.href) == current } ?? 0
            if kind == .pages, let currentPage, let page = entries.firstIndex(where: { $0.title == currentPage }) { selection = page }
            selections[kind] = selection
        }
        self.selections = selections
        entries = lists[.contents] ?? []
        list = ListState(count: entries.count, selection: selections[.contents] ?? 0, visibleRows: visibleRows)
    }

    private static func flatten(_ links: [Link]) -> [Entry] {
        var entries: [Entry] = []
        func walk(_ links: [Link], depth: Int) {
            for link in links {
                let title = link.title.map { $0.isEmpty ? link.href : $0 } ?? link.href
                entries.append(Entry(title: title, href: link.href, depth: depth))
                walk(link.children, depth: depth + 1)
            }
        }
        walk(links, depth: 0)
        return entries
    }

    /// The lists the book has besides its contents, in the order their keys are shown.
    public var otherKinds: [Kind] { Kind.allCases.filter { $0 != kind && ($0 == .contents || lists[$0] != nil) } }

    /// Shows the list of `kind` when the book has one; false when it has none.
    public mutating func show(_ kind: Kind) -> Bool {
        guard let entries = lists[kind] else { return false }
        selections[self.kind] = list.selection
        self.kind = kind
        self.entries = entries
        list = ListState(count: entries.count, selection: selections[kind] ?? 0, visibleRows: visibleRows)
        return true
    }

    /// The list a key shows (`c`, `p`, `L`), nil for other keys.
    public static func kind(forKey character: Character) -> Kind? {
        Kind.allCases.first { $0.key == character }
    }

    public var selected: Entry? { entries.isEmpty ? nil : entries[list.selection] }
}
