import FoundationEssentials
import Shared

/// Finds the authentication document behind a 401: the body itself, else the document a
/// `rel="http://opds-spec.org/auth/document"` link points to (an HTTP `Link` header, or a link
/// of the feed the body holds). The linked document is fetched without credentials.
enum AuthenticationDiscovery {
    static func document(in response: HTTPResponse, client: any HTTPClient) -> AuthenticationDocument? {
        let body = [UInt8](response.body)
        if let document = AuthenticationDocument.parse(body, url: response.url) { return document }
        guard let href = linkHeaderTarget(response.headers["link"], base: response.url)
                ?? feedLinkTarget(body, url: response.url) else { return nil }
        let request = HTTPRequest(url: href, headers: ["Accept": "application/opds-authentication+json, application/json"],
                                  maxBodySize: AuthenticationDocument.maxSize)
        guard case .success(let linked) = client.send(request), linked.isSuccess || linked.statusCode == 401 else { return nil }
        return AuthenticationDocument.parse([UInt8](linked.body), url: linked.url.isEmpty ? href : linked.url)
    }

    /// The target of `<…>; rel="http://opds-spec.org/auth/document"` in a `Link` header.
    static func linkHeaderTarget(_ header: String?, base: String) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { String($0).trimmed }
            guard let target = pieces.first, target.hasPrefix("<"), target.hasSuffix(">") else { continue }
            let isDocument = pieces.dropFirst().contains { parameter in
                let value = parameter.replacing("\"", with: "")
                return value.hasPrefix("rel=") && value.dropFirst(4).split(separator: " ").contains { $0 == AuthenticationDocument.documentRel }
            }
            if isDocument { return CatalogURL(base: base).resolve(String(target.dropFirst().dropLast())) }
        }
        return nil
    }

    private static func feedLinkTarget(_ body: [UInt8], url: String) -> String? {
        guard let feed = try? OPDSParser.parse(body, url: url) else { return nil }
        return feed.link(rel: AuthenticationDocument.documentRel)?.href
    }
}
