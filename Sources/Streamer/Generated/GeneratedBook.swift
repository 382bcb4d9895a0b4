import FoundationEssentials
import Shared

/// A publication made of XHTML documents a parser writes (plain-text chapters, FB2 sections):
/// their hrefs, reading order, contents and fetcher.
struct GeneratedBook {
    /// One document to generate.
    struct Document: Sendable {
        /// Its heading, for the contents; nil for text before the first heading.
        var title: String?
        /// A heading that groups the documents after it in the contents ("PART I").
        var isGroup = false
        /// Contents entries inside the document (fragment, title, children), for FB2's nested
        /// sections.
        var children: [Link] = []
        /// The document's body markup, made on first read.
        var body: @Sendable () -> String
    }

    var title: String
    var language: String?
    /// The start of every generated href (`text/chapter-`), followed by a number and `.xhtml`.
    var hrefPrefix: String

    func href(ofDocument index: Int) -> String {
        let number = String(index + 1)
        return hrefPrefix + String(repeating: "0", count: max(0, 4 - number.count)) + number + ".xhtml"
    }

    /// The builder of the publication holding `documents` (and `resources`, generated too),
    /// with `base` answering every other href.
    func builder(documents: [Document], resources: [GeneratedFetcher.Entry] = [], listing listed: [Link] = [],
                 metadata: Metadata, base: any Fetcher, format: Format) -> PublicationBuilder {
        var readingOrder: [Link] = []
        var entries: [GeneratedFetcher.Entry] = []
        var contents: [Link] = []
        var groupIndex: Int?
        for (index, document) in documents.enumerated() {
            let href = href(ofDocument: index)
            let link = Link(href: href, mediaType: .xhtml, title: document.title)
            readingOrder.append(link)
            let (title, language) = (document.title ?? self.title, self.language)
            let body = document.body
            entries.append(GeneratedFetcher.Entry(link: link) {
                .success(Data(XHTMLWriter.document(title: title, language: language, body: body()).utf8))
            })
            guard let heading = document.title else {
                contents += document.children
                continue
            }
            let entry = Link(href: href, title: heading, children: document.children)
            if document.isGroup {
                contents.append(entry)
                groupIndex = contents.count - 1
            } else if let groupIndex {
                contents[groupIndex].children.append(entry)
            } else {
                contents.append(entry)
            }
        }
        if contents.isEmpty, let first = readingOrder.first {
            contents = [Link(href: first.href, title: title)]
        }
        let fetcher = GeneratedFetcher(entries: entries + resources, listing: listed, base: base)
        let manifest = Manifest(metadata: metadata, readingOrder: readingOrder, resources: resources.map(\.link) + listed,
                                tableOfContents: contents)
        return PublicationBuilder(manifest: manifest, fetcher: fetcher, format: format)
    }
}
