import FoundationEssentials
import Shared

/// Reads catalog documents from a URL (through the project's HTTP client) or a file path.
public struct CatalogReader: Sendable {
    let client: any HTTPClient

    public init(client: any HTTPClient) {
        self.client = client
    }

    /// Why a catalog document could not be had.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case http(String, HTTPError)
        case status(String, Int)
        case file(String)
        case document(String, OPDSError)
        /// HTTP 401 with an Authentication for OPDS document.
        case signIn(String, AuthenticationDocument)

        public var description: String {
            switch self {
            case .http(let url, let error): "\(url): \(error)"
            case .status(let url, 401): "\(url): the catalog asks you to sign in (HTTP 401)"
            case .status(let url, let code): "\(url): the server answered HTTP \(code)"
            case .file(let path): "\(path): cannot read the file"
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
        if Href.isHTTP(location) {
            let request = HTTPRequest(url: location, headers: [
                "Accept": "application/opds+json, application/atom+xml;q=0.9, application/xml;q=0.8, */*;q=0.1",
            ], maxBodySize: OPDSParser.maxDocumentSize)
            switch client.send(request) {
            case .failure(let error): throw .http(location, error)
            case .success(let response):
                if response.statusCode == 401, let document = AuthenticationDiscovery.document(in: response, client: client) {
                    throw .signIn(location, document)
                }
                guard response.isSuccess else { throw .status(location, response.statusCode) }
                return ([UInt8](response.body), response.url.isEmpty ? location : response.url)
            }
        }
        let path = location.hasPrefix("file://") ? String(location.dropFirst("file://".count)) : location
        guard let data = FileManager.default.contents(atPath: path) else { throw .file(path) }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return ([UInt8](data), "file://" + absolute)
    }

    /// The feed at `location`.
    public func feed(at location: String) throws(Failure) -> OPDSFeed {
        let (bytes, url) = try bytes(at: location)
        do { return try OPDSParser.parse(bytes, url: url) } catch { throw .document(location, error) }
    }

    /// The URL of a search for `terms` from the feed's search link: an OPDS 2 templated link or
    /// an OpenSearch template directly, else through the OpenSearch description it points to.
    /// Nil when the feed offers no search.
    public func searchURL(in feed: OPDSFeed, terms: String) throws(Failure) -> String? {
        guard let link = feed.searchLink else { return nil }
        if link.templated || link.href.contains("{") { return CatalogSearch.url(template: link.href, terms: terms) }
        let (bytes, url) = try bytes(at: link.href)
        let description: OpenSearchDescription
        do { description = try OpenSearchDescription.parse(bytes, url: url) } catch { throw .document(link.href, error) }
        return description.catalogTemplate.map { CatalogSearch.url(template: $0, terms: terms) }
    }
}
