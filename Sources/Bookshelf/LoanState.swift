import FoundationEssentials

/// Where the bookshelf reads the state of LCP loans, by license id: the license repository,
/// through the composition root (the bookshelf knows nothing of LCP's tables).
public typealias LoanStateSource = @Sendable (_ now: Date) -> [String: LoanState]

/// The state of an LCP loan, as the bookshelf shows it, from the license repository.
public enum LoanState: Sendable, Hashable {
    /// A loan running for `days` more days (0 on its last day).
    case daysLeft(Int)
    case notStarted
    case expired
    case returned
    case revoked
    case cancelled

    /// The label of the bookshelf's loan column.
    public var label: String {
        switch self {
        case .daysLeft(let days): days == 1 ? "1 day left" : "\(days) days left"
        case .notStarted: "not started"
        case .expired: "expired"
        case .returned: "returned"
        case .revoked: "revoked"
        case .cancelled: "cancelled"
        }
    }

    /// The state from a license's status (`lcp_licenses.status`) and rights dates; nil for a
    /// license without an end date that nothing ended (a purchase).
    public init?(status: String?, rightsStart: Date?, rightsEnd: Date?, now: Date = Date()) {
        switch status {
        case "returned": self = .returned; return
        case "revoked": self = .revoked; return
        case "cancelled": self = .cancelled; return
        case "expired": self = .expired; return
        default: break
        }
        if let rightsStart, now < rightsStart { self = .notStarted; return }
        guard let rightsEnd else { return nil }
        let seconds = rightsEnd.timeIntervalSince(now)
        if seconds < 0 { self = .expired; return }
        self = .daysLeft(Int(seconds / 86_400))
    }
}
