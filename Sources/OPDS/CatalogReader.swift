import FoundationEssentials
import Shared

/// Reads catalog documents from a URL (through the project's HTTP client) or a file path.
public struct CatalogReader: Sendable {
    let client: any HTTPClient
    let cache: CatalogFeedCache?
    let offline: Bool
    let onCachedCopy: @Sendable (_ url: String, _ fetchedAt: Date) -> Void

    /// With a `cache`, feeds are revalidated and kept there; `offline` reads the kept copies
    /// only. `onCachedCopy` is told when a copy is shown that the server did not just confirm.
    public init(client: any HTTPClient, cache: CatalogFeedCache? = nil, offline: Bool = false,
                onCachedCopy: @escaping @Sendable (String, Date) -> Void = { _, _ in }) {
        self.client = client
        self.cache = cache
        self.offline = offline
        self.onCachedCopy = onCachedCopy
    }

    /// This reader telling `handler` (instead of its own) when it shows a kept copy the server
    /// did not just confirm: for the one request that wants to say so.
    public func notifying(cachedCopy handler: @escaping @Sendable (_ url: String, _ fetchedAt: Date) -> Void) -> CatalogReader {
        CatalogReader(client: client, cache: cache, offline: offline, onCachedCopy: handler)
    }

    /// Why a catalog document could not be had.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case http(String, HTTPError)
        case status(String, Int)
        case file(String)
        case document(String, OPDSError)
        /// HTTP 401 with an Authentication for OPDS document.
        case signIn(String, AuthenticationDocument)
        /// Offline, and no copy of the feed was kept.
        case notKept(String)

        public var description: String {
            switch self {
            case .http(let url, let error): "\(url): \(error)"
            case .status(let url, 401): "\(url): the catalog asks you to sign in (HTTP 401)"
            case .status(let url, let code): "\(url): the server answered HTTP \(code)"
            case .file(let path): "\(path): cannot read the file"
            case .notKept(let url): "\(url): no copy of this feed was kept to read offline"
            case .document(let url, let error): "\(url): \(error)"
            case .signIn(let url, let document):
                "\(url): the catalog asks you to sign in"
                    + (document.title.isEmpty ? "" : " to \(document.title)")
                    + (document.labels.map { " (\($0))" } ?? "")
                    + (document.usableFlow?.type == AuthenticationDocument.oauthImplicit
                        ? "; open \(document.usableFlow?.authenticateURL ?? url) in a browser to sign in"
                        : "; save it with `lectern catalog add URL --username NAME` to sign in")
            }
        }
    }

    /// The bytes at `location` and the URL they were read from (after redirects; `file://…` for
    /// a path), against which the document's hrefs resolve.
    public func bytes(at location: String) throws(Failure) -> (bytes: [UInt8], url: String) {
        let fetched = try fetch(location)
        return (fetched.bytes, fetched.url)
    }

    private struct Fetched {
        var bytes: [UInt8]
        var url: String
        /// What to keep once the bytes proved to be a catalog (nil: nothing new to keep).
        var toKeep: CatalogFeedCache.Entry?
    }

    private func fetch(_ location: String) throws(Failure) -> Fetched {
        if Href.isHTTP(location) {
            let kept = cache?.entry(for: location)
            if offline {
                guard let kept else { throw .notKept(location) }
                onCachedCopy(location, kept.fetchedAt)
                return Fetched(bytes: kept.body, url: kept.url)
            }
            var headers = ["Accept": "application/opds+json, application/atom+xml;q=0.9, application/xml;q=0.8, */*;q=0.1"]
            if let etag = kept?.etag { headers["If-None-Match"] = etag }
            if let lastModified = kept?.lastModified { headers["If-Modified-Since"] = lastModified }
            let request = HTTPRequest(url: location, headers: headers, maxBodySize: OPDSParser.maxDocumentSize)
            switch client.send(request) {
            case .failure(let error):
                // Unreachable or silent: the last copy, said to be one.
                if let kept, Self.isNetworkFailure(error) {
                    onCachedCopy(location, kept.fetchedAt)
                    return Fetched(bytes: kept.body, url: kept.url)
                }
                throw .http(location, error)
            case .success(let response):
                if response.statusCode == 304, var kept {
                    kept.fetchedAt = Date()
                    return Fetched(bytes: kept.body, url: kept.url, toKeep: kept)
                }
                if response.statusCode == 401, let document = AuthenticationDiscovery.document(in: response, client: client) {
                    throw .signIn(location, document)
                }
                guard response.isSuccess else { throw .status(location, response.statusCode) }
                let url = response.url.isEmpty ? location : response.url
                let bytes = [UInt8](response.body)
                return Fetched(bytes: bytes, url: url, toKeep: CatalogFeedCache.Entry(
                    body: bytes, url: url, etag: response.headers["etag"], lastModified: response.headers["last-modified"],
                    fetchedAt: Date()))
            }
        }
        let path = location.hasPrefix("file://") ? String(location.dropFirst("file://".count)) : location
        guard let data = FileManager.default.contents(atPath: path) else { throw .file(path) }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return Fetched(bytes: [UInt8](data), url: "file://" + absolute)
    }

    private static func isNetworkFailure(_ error: HTTPError) -> Bool {
        switch error {
        case .timedOut, .unreachable: true
        default: false
        }
    }

    /// The feed at `location`; kept in the cache (when there is one) once it parsed.
    public func feed(at location: String) throws(Failure) -> OPDSFeed {
        let fetched = try fetch(location)
        let feed: OPDSFeed
        do { feed = try OPDSParser.parse(fetched.bytes, url: fetched.url) } catch { throw .document(location, error) }
        if let cache, let entry = fetched.toKeep { cache.store(entry, for: location) }
        return feed
    }

    /// The URL of a search for `terms` from the feed's search link: an OPDS 2 templated link or
    /// an OpenSearch template directly, else through the OpenSearch description it points to.
    /// Nil when the feed offers no search.
    public func searchURL(in feed: OPDSFeed, terms: String) throws(Failure) -> String? {
        guard let link = feed.searchLink else { return nil }
        if link.templated || link.href.contains("{") { return CatalogSearch.url(template: link.href, terms: terms) }
        let fetched = try fetch(link.href)
        let description: OpenSearchDescription
        do { description = try OpenSearchDescription.parse(fetched.bytes, url: fetched.url) } catch { throw .document(link.href, error) }
        if let cache, let entry = fetched.toKeep { cache.store(entry, for: link.href) }
        return description.catalogTemplate.map { CatalogSearch.url(template: $0, terms: terms) }
    }
}
