import FoundationEssentials
import Shared

/// Fetches the License Status Document of a `license` link and fails only on a definite
/// status other than `ready` or `active`; a server that cannot be reached, an HTTP error, an
/// unreadable body or a missing status skip the check (audiobook-drm.md §5).
struct LicenseStatusCheck: Sendable {
    let httpClient: any HTTPClient
    let timeout: Double

    static let usableStatuses: Set<String> = ["ready", "active"]
    static let maxBodySize = 1 << 20

    func check(_ url: String) async -> AudiobookDRMReport.Outcome {
        let request = HTTPRequest(url: url, headers: ["Accept": FeedbooksVocabulary.licenseStatusMediaType + ", application/json"],
                                  timeout: timeout, maxBodySize: Self.maxBodySize)
        let response: HTTPResponse
        switch await httpClient.send(request) {
        case .failure(let error): return .skipped("the license status could not be fetched: \(error)")
        case .success(let received): response = received
        }
        guard response.isSuccess else { return .skipped("the license status server answered HTTP \(response.statusCode)") }
        guard let json = try? JSONParser.parse(response.body) else { return .skipped("the license status document is not JSON") }
        guard let status = json["status"]?.string else { return .skipped("the license status document gives no status") }
        return Self.usableStatuses.contains(status) ? .passed : .failed(.licenseStatus(status))
    }
}
