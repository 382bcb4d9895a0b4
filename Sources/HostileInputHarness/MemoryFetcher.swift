import FoundationEssentials
import Shared

/// Serves files held in memory by package path, as an ``ArchiveFetcher`` serves the entries
/// of a package (same hrefs, same media types), so parsers read a hostile document without
/// the harness building a ZIP around it.
final class MemoryFetcher: Fetcher {
    private let files: [String: Data]
    let links: [Link]

    /// `files` by package path (`META-INF/container.xml`), in the order they are listed.
    init(_ files: [(path: String, bytes: Data)]) {
        var byPath: [String: Data] = [:]
        var links: [Link] = []
        for file in files where byPath[file.path] == nil {
            byPath[file.path] = file.bytes
            links.append(Link(href: Href.fromPath(file.path), mediaType: MediaType.of(path: file.path)))
        }
        self.files = byPath
        self.links = links
    }

    func get(_ link: Link, parameters: [String: String]) -> any Resource {
        guard let path = link.path, let bytes = files[path] else {
            return FailureResource(link: link, error: .notFound(link.href))
        }
        var link = link
        if link.mediaType == nil { link.mediaType = MediaType.of(path: path) }
        return BytesResource(link: link, bytes: bytes)
    }

    func close() {}
}
