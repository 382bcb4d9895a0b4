import FoundationEssentials
import Shared

/// The HTTP exchanges of the License Status protocol made while opening a book: each with a
/// short timeout, so that an unreachable or silent server never holds the opening for longer
/// (LSD §3.2, LCP §7.4).
struct LicenseStatusClient: Sendable {
    let httpClient: any HTTPClient
    /// Seconds allowed for each exchange (5 s by default, as in the Readium toolkits).
    let timeout: Double

    static let statusMediaType = "application/vnd.readium.license.status.v1.0+json"
    static let licenseMediaType = "application/vnd.readium.lcp.license.v1.0+json"

    /// GETs a status document.
    func fetchStatus(_ url: String) async -> Result<Data, LCPError> {
        await send(HTTPRequest(url: url, headers: headers(accept: Self.statusMediaType), timeout: timeout, maxBodySize: 1 << 20))
    }

    /// GETs the status document of a license a person is acting on. The reference server
    /// creates the status of a new license asynchronously, so a 404 is asked again a few times
    /// (after `delay`, then twice that…) before giving up.
    func fetchStatus(_ url: String, retryingNotFound attempts: Int, delay: Double) async -> Result<Data, LCPError> {
        let request = HTTPRequest(url: url, headers: headers(accept: Self.statusMediaType), timeout: timeout, maxBodySize: 1 << 20)
        guard Href.isHTTP(url) else { return .failure(.network("not an HTTP URL: \(url)")) }
        var attempt = 1
        while true {
            switch await httpClient.send(request) {
            case .success(let response) where response.isSuccess:
                return .success(response.body)
            case .success(let response) where response.statusCode == 404 && attempt < attempts:
                try? await Task.sleep(nanoseconds: UInt64(delay * Double(attempt) * 1_000_000_000))
                attempt += 1
            case .success(let response) where response.statusCode == 404:
                return .failure(.network("the provider does not know this license's status yet (HTTP 404); try again in a moment"))
            case .success(let response):
                return .failure(.network(Self.describe(response)))
            case .failure(let error):
                return .failure(.network(error.description))
            }
        }
    }

    /// GETs a license document.
    func fetchLicense(_ url: String) async -> Result<Data, LCPError> {
        await send(HTTPRequest(url: url, headers: headers(accept: Self.licenseMediaType), timeout: timeout, maxBodySize: 1 << 20))
    }

    /// POSTs a device registration (parameters in the query, empty body); returns the new
    /// status document.
    func register(_ url: String) async -> Result<Data, LCPError> {
        await send(HTTPRequest(url: url, method: "POST", headers: headers(accept: Self.statusMediaType), body: Data(),
                               timeout: timeout, maxBodySize: 1 << 20), interaction: .register)
    }

    /// PUTs a renewal or a return (parameters in the query, empty body); returns the new status
    /// document, or the error the problem document describes.
    func put(_ url: String, _ interaction: LicenseStatusInteraction, requestedEnd: Date? = nil,
             latestEnd: Date? = nil) async -> Result<Data, LCPError> {
        await send(HTTPRequest(url: url, method: "PUT", headers: headers(accept: Self.statusMediaType), body: Data(),
                               timeout: timeout, maxBodySize: 1 << 20),
                   interaction: interaction, requestedEnd: requestedEnd, latestEnd: latestEnd)
    }

    private func headers(accept: String) -> [String: String] {
        ["Accept": accept, "Accept-Language": "en"]
    }

    private func send(_ request: HTTPRequest, interaction: LicenseStatusInteraction? = nil, requestedEnd: Date? = nil,
                      latestEnd: Date? = nil) async -> Result<Data, LCPError> {
        guard Href.isHTTP(request.url) else { return .failure(.network("not an HTTP URL: \(request.url)")) }
        switch await httpClient.send(request) {
        case .success(let response) where response.isSuccess:
            return .success(response.body)
        case .success(let response):
            guard let interaction else { return .failure(.network(Self.describe(response))) }
            return .failure(LicenseStatusProblem(response: response)
                .error(for: interaction, requestedEnd: requestedEnd, latestEnd: latestEnd))
        case .failure(let error):
            return .failure(.network(error.description))
        }
    }

    /// A short cause for an error answer: the problem document's title when it is one
    /// (RFC 7807, LSD §3.1), else the HTTP status. A 404 right after a license is issued is
    /// normal with the reference server (the status is created asynchronously).
    static func describe(_ response: HTTPResponse) -> String {
        if let problem = try? JSONParser.parse(response.body).object,
           let title = problem["title"]?.string ?? problem["detail"]?.string {
            return "HTTP \(response.statusCode): \(title)"
        }
        return "HTTP \(response.statusCode)"
    }
}
