import LibZip

/// Opens a local file, a folder or a URL as an ``Asset``: sniffs its format with a
/// ``FormatSniffer`` and makes the leaf fetcher that reads it.
///
/// Leaf fetchers:
/// - ZIP packages (EPUB, Readium packages, CBZ, ZAB): an ``ArchiveFetcher`` on the archive.
/// - An exploded EPUB or Readium package folder: a ``FileFetcher`` exposing the folder at the
///   root (`""`), as an archive would.
/// - A single file (PDF, LCP license): a ``FileFetcher`` exposing the file at its file name,
///   which is also ``Asset/name``.
/// - A standalone manifest (RWPM, audiobook, Divina): a ``FileFetcher`` exposing the
///   manifest's **folder** at the root, so that the relative hrefs of its reading order
///   (`audio/ch1.mp3`) are reachable; the manifest itself is at ``Asset/name``. Nothing
///   outside that folder is (the ``FileFetcher`` refuses `..` and symbolic links leading out).
/// - A URL: an ``HTTPFetcher`` whose base URL is the asset's URL (after redirects), so that a
///   manifest's relative hrefs resolve against it.
///
/// Only what sniffing needs is read: the first bytes, the ZIP directory, a few small entries.
public struct AssetRetriever: Sendable {
    public let httpClient: any HTTPClient
    public let sniffer: FormatSniffer
    /// Seconds allowed for each HTTP request made while retrieving a URL.
    public let timeout: Double

    public init(httpClient: any HTTPClient = CurlHTTPClient(), sniffer: FormatSniffer = FormatSniffer(), timeout: Double = 30) {
        self.httpClient = httpClient
        self.sniffer = sniffer
        self.timeout = timeout
    }

    /// Opens the file or folder at `path`.
    ///
    /// - Throws: ``AssetError/notFound(_:)`` when nothing is there (or a symbolic link
    ///   dangles); ``AssetError/unreadable(_:reason:)`` when it cannot be read;
    ///   ``AssetError/damaged(_:reason:)`` for a ZIP archive libzip cannot open;
    ///   ``AssetError/unsupportedFormat(_:detected:)`` for content that is no publication,
    ///   with what it is when known (an OPDS feed, a plain ZIP).
    public func retrieve(path: String) throws(AssetError) -> Asset {
        let hints = FormatHints(path: path)
        let sniffed = try sniffer.sniffPath(path, hints: hints)
        // An HTML page is a book when it is named as one (or is a folder's index), not because
        // its content is markup.
        var isBookPage = hints.names(.html) || hints.names(.xhtml)
        if case .folder = sniffed.content { isBookPage = true }
        guard let format = sniffed.format, format.isPublication || (isBookPage && format.isLocalPublication) else {
            if case .archive(let archive) = sniffed.content { archive.close() }
            throw .unsupportedFormat(path, detected: sniffed.format)
        }
        let name = Self.fileName(of: path)
        let fetcher: any Fetcher
        switch sniffed.content {
        case .archive(let archive):
            fetcher = ArchiveFetcher(archive: archive)
        case .folder:
            fetcher = FileFetcher(paths: ["": path])
        // A document whose relative pictures sit beside it (HTML, Markdown) sees its folder too.
        case .file where format.isStandaloneManifest || format.readsItsFolder:
            fetcher = FileFetcher(paths: ["": Self.folder(of: path)])
        case .file:
            fetcher = FileFetcher(href: Href.fromPath(name), path: path)
        }
        return Asset(name: name, location: path, format: format, fetcher: fetcher)
    }

    /// The last component of a path, ignoring trailing slashes.
    static func fileName(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/"), trimmed.count > 1 else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The folder that holds the file at `path`.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

extension Format {
    /// A Readium manifest opened on its own, whose resources sit beside it or on the web.
    var isStandaloneManifest: Bool {
        kind == .webpubManifest || kind == .audiobookManifest || kind == .divinaManifest
    }

    /// A document that names files beside it (pictures), read through its folder.
    var readsItsFolder: Bool {
        kind == .html || kind == .xhtml || kind == .markdown
    }
}
