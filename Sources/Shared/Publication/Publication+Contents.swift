/// What a reader offers as a publication's contents and other ways in (#29 items 8, 14).
extension Manifest {
    /// The table of contents; when the publication has none, its reading-order items that
    /// carry a title (a Web Publication's `readingOrder` often names every chapter and lists no
    /// `toc`). Empty when neither says anything.
    public var contents: [Link] {
        let toc = tableOfContents
        guard toc.isEmpty else { return toc }
        return readingOrder.compactMap { item in
            guard let title = item.title?.trimmed, !title.isEmpty else { return nil }
            return Link(href: item.href, mediaType: item.mediaType, title: title)
        }
    }

    /// The page list (EPUB `page-list` and NCX `pageList`, RWPM `pageList`, a PDF's page
    /// labels): a printed page's label (its title) and where it begins.
    public var pageList: [Link] { subcollectionLinks("pageList") }

    /// The landmarks (EPUB `landmarks`, RWPM `landmarks`): the cover, the start of the text…
    public var landmarks: [Link] { subcollectionLinks("landmarks") }
}

extension Publication {
    /// ``Manifest/contents``: the table of contents, else the titled reading-order items.
    public var contents: [Link] { manifest.contents }
    /// ``Manifest/pageList``.
    public var pageList: [Link] { manifest.pageList }
    /// ``Manifest/landmarks``.
    public var landmarks: [Link] { manifest.landmarks }
}
