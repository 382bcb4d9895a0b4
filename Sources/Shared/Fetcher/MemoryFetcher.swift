import FoundationEssentials

/// Serves files held in memory by package path, as an ``ArchiveFetcher`` serves the entries of
/// a package (same hrefs, same media types): a package rebuilt in memory (a Mobipocket book),
/// or a hostile document read without building a ZIP around it.
public final class MemoryFetcher: Fetcher {
    /// One file: its package path, its bytes and, when known better than its extension says,
    /// its media type.
    public struct File: Sendable {
        public var path: String
        public var bytes: Data
        public var mediaType: MediaType?

        public init(path: String, bytes: Data, mediaType: MediaType? = nil) {
            self.path = path
            self.bytes = bytes
            self.mediaType = mediaType
        }
    }

    private let files: [String: Data]
    public let links: [Link]

    /// `files` in the order they are listed; a path given twice keeps its first bytes.
    public init(_ files: [File]) {
        var byPath: [String: Data] = [:]
        var links: [Link] = []
        for file in files where byPath[file.path] == nil {
            byPath[file.path] = file.bytes
            links.append(Link(href: Href.fromPath(file.path), mediaType: file.mediaType ?? MediaType.of(path: file.path)))
        }
        self.files = byPath
        self.links = links
    }

    /// `files` by package path (`META-INF/container.xml`), in the order they are listed.
    public convenience init(_ files: [(path: String, bytes: Data)]) {
        self.init(files.map { File(path: $0.path, bytes: $0.bytes) })
    }

    public func get(_ link: Link, parameters: [String: String]) -> any Resource {
        guard let path = link.path, let bytes = files[path] else {
            return FailureResource(link: link, error: .notFound(link.href))
        }
        var link = link
        if link.mediaType == nil { link.mediaType = links.first(withHREF: link.href)?.mediaType ?? MediaType.of(path: path) }
        return BytesResource(link: link, bytes: bytes)
    }

    public func close() {}
}
