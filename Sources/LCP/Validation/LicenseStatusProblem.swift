import FoundationEssentials
import Shared

/// The License Status exchanges that change a loan.
enum LicenseStatusInteraction: Sendable {
    case register, renew, `return`
}

/// An error answer of a License Status server: an RFC 7807 problem document (LSD §3.1) when
/// the server sent one, mapped to the error a person understands by its `type` first, then,
/// for servers that send none (the reference server's 404), by the HTTP status.
struct LicenseStatusProblem {
    static let typeBase = "http://readium.org/license-status-document/error/"

    let statusCode: Int
    /// The `type` without the LSD base (`renew/date`); the whole URI for other types.
    let type: String?
    let title: String?
    let detail: String?

    init(response: HTTPResponse) {
        statusCode = response.statusCode
        let problem = (try? JSONParser.parse(response.body))?.object
        let type = problem?["type"]?.string
        self.type = type.map { $0.hasPrefix(Self.typeBase) ? String($0.dropFirst(Self.typeBase.count)) : $0 }
        title = problem?["title"]?.string
        detail = problem?["detail"]?.string
    }

    /// What to tell the person: the server's detail when it gave one, else the HTTP status
    /// for an answer that is not a problem document.
    private var explanation: String? {
        if let detail, !detail.isEmpty { return detail }
        if type == nil, title == nil { return "HTTP \(statusCode)" }
        return nil
    }

    func error(for interaction: LicenseStatusInteraction, requestedEnd: Date?, latestEnd: Date?) -> LCPError {
        switch type {
        case "renew/date": return .renewalDateNotAllowed(requested: requestedEnd, latest: latestEnd)
        case "renew": return .renewFailed(explanation)
        case "return/already": return .alreadyReturned
        case "return/expired": return .loanAlreadyExpired
        case "return": return .returnFailed(explanation)
        case "registration": return .registrationFailed(explanation)
        case "server": return .serverError(explanation)
        default: break
        }
        if statusCode >= 500 { return .serverError(explanation) }
        switch interaction {
        case .register:
            return .registrationFailed(explanation)
        case .renew:
            return statusCode == 403 ? .renewalDateNotAllowed(requested: requestedEnd, latest: latestEnd) : .renewFailed(explanation)
        case .return:
            return statusCode == 403 ? .alreadyReturned : .returnFailed(explanation)
        }
    }
}
