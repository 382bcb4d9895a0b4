import FoundationEssentials
import Shared

/// Fetching the LCP license of a borrow or buy link. The link may give the license itself, or
/// (as the OPDS borrowing best practices recommend) an OPDS publication (Atom entry or
/// `application/opds-publication+json`) whose acquisition link is the license. A link that
/// refuses GET with 405 is POSTed, as catalogs that treat borrowing as a change ask.
public enum CatalogBorrow {
    /// Why no license was had; `description` is the message to show.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The license and the hashed passphrase the catalog gave with it.
    public static func license(from link: OPDSLink, client: any HTTPClient) async throws(Failure) -> (Data, String?) {
        let response = try await fetch(link.href, client: client)
        guard isOPDSDocument(link.type) else { return (response.body, link.properties.lcpHashedPassphrase) }
        guard let publication = OPDSParser.publication([UInt8](response.body), url: response.url.isEmpty ? link.href : response.url),
              let next = publication.acquisitionLinks.first(where: { $0.type?.hasPrefix(CatalogFormat.lcpLicense) == true }) else {
            throw Failure(description: "\(link.href): the catalog's answer to the loan holds no LCP license")
        }
        let license = try await fetch(next.href, client: client)
        return (license.body, next.properties.lcpHashedPassphrase ?? link.properties.lcpHashedPassphrase)
    }

    static func isOPDSDocument(_ type: String?) -> Bool {
        guard let type = type?.lowercased() else { return false }
        return type.hasPrefix("application/opds-publication+json") || type.hasPrefix("application/opds+json")
            || type.hasPrefix("application/atom+xml")
    }

    private static func fetch(_ url: String, client: any HTTPClient) async throws(Failure) -> HTTPResponse {
        var result = await client.send(HTTPRequest(url: url, maxBodySize: 1 << 20))
        if case .success(let response) = result, response.statusCode == 405 {
            result = await client.send(HTTPRequest(url: url, method: "POST", maxBodySize: 1 << 20))
        }
        switch result {
        case .success(let response) where response.isSuccess:
            return response
        case .success(let response):
            throw Failure(description: "\(url): the server answered HTTP \(response.statusCode)")
        case .failure(let error):
            throw Failure(description: "\(url): \(error)")
        }
    }
}
