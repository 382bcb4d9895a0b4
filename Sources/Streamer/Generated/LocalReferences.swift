import Shared

/// The files a document names beside it (pictures of a Markdown or HTML file), as links of the
/// publication: relative references only, resolved against the document, without duplicates.
/// Nothing outside the document's folder is reachable anyway (the file fetcher refuses `..`
/// and symbolic links leading out).
enum LocalReferences {
    static func pictures(_ references: [String], from document: String) -> [Link] {
        var seen: Set<String> = []
        var links: [Link] = []
        for reference in references {
            let trimmed = reference.trimmed
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), !Href.isAbsoluteURL(trimmed), !trimmed.hasPrefix("/") else { continue }
            let href = Href.removingFragment(Href.resolve(trimmed, against: document))
            guard !href.hasPrefix(".."), seen.insert(href).inserted else { continue }
            links.append(Link(href: href, mediaType: MediaType.of(path: Href.path(of: href) ?? href)))
        }
        return links
    }
}
