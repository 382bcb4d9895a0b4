/// One entry of a PDF's outline (bookmarks).
public struct PDFOutlineItem: Sendable, Hashable {
    public var title: String
    /// The 0-based index of the page it goes to (named destinations resolved); nil when it
    /// goes nowhere in this document.
    public var pageIndex: Int?
    /// The address of an outline entry that opens a URI.
    public var uri: String?
    public var children: [PDFOutlineItem]

    public init(title: String, pageIndex: Int? = nil, uri: String? = nil, children: [PDFOutlineItem] = []) {
        self.title = title
        self.pageIndex = pageIndex
        self.uri = uri
        self.children = children
    }
}
