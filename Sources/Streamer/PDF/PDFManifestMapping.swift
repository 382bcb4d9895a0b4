import LibPoppler
import Shared

/// How a PDF document's information becomes RWPM: metadata, table of contents from the
/// outline, page list from the page labels. Locations inside the PDF are `<href>#page=N`,
/// N counted from 1 (RFC 8118's `page` fragment).
enum PDFManifestMapping {
    /// The metadata of a PDF publication: its title (else `fallbackTitle`, the file name),
    /// authors (separated by `;` in `/Author`, since commas often sit inside one name), subjects
    /// from the keywords, description from `/Subject`, page count and the PDF profile.
    static func metadata(_ info: PDFMetadata, fallbackTitle: String, pageCount: Int) -> Metadata {
        Metadata(
            conformsTo: [Manifest.Profile.pdf],
            title: .nonlocalized(info.title ?? fallbackTitle),
            subjects: split(info.keywords, separators: [",", ";"]).map { Subject(name: .nonlocalized($0)) },
            authors: split(info.author, separators: [";"]).map { Contributor(name: .nonlocalized($0)) },
            description: info.subject,
            numberOfPages: pageCount)
    }

    /// The table of contents of a PDF outline: entries that go to a page link to it, entries
    /// that open a URI link to it, others to the PDF itself.
    static func tableOfContents(_ outline: [PDFOutlineItem], pdfHref: String) -> [Link] {
        outline.map { item in
            let title = item.title.trimmed
            if let uri = item.uri, item.pageIndex == nil {
                return Link(href: uri, title: title.isEmpty ? nil : title,
                            children: tableOfContents(item.children, pdfHref: pdfHref))
            }
            return Link(href: item.pageIndex.map { pageHref(pdfHref, index: $0) } ?? pdfHref, mediaType: .pdf,
                        title: title.isEmpty ? nil : title, children: tableOfContents(item.children, pdfHref: pdfHref))
        }
    }

    /// The `pageList` of a PDF whose pages carry labels other than their numbers; nil when
    /// every label is just the page number (or missing).
    static func pageList(_ labels: [String?], pdfHref: String) -> [Link]? {
        let hasLabels = labels.enumerated().contains { index, label in label != nil && label != String(index + 1) }
        guard hasLabels else { return nil }
        return labels.enumerated().map { index, label in
            Link(href: pageHref(pdfHref, index: index), mediaType: .pdf, title: label ?? String(index + 1))
        }
    }

    /// `<pdfHref>#page=N` for the page at 0-based `index`.
    static func pageHref(_ pdfHref: String, index: Int) -> String {
        "\(Href.removingFragment(pdfHref))#page=\(index + 1)"
    }

    private static func split(_ value: String?, separators: Set<Character>) -> [String] {
        guard let value else { return [] }
        return value.split(whereSeparator: { separators.contains($0) }).map(\.trimmed).filter { !$0.isEmpty }
    }
}
