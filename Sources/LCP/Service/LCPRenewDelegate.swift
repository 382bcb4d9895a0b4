import FoundationEssentials

/// How a loan renewal gets what it needs from the person (the end date, or a visit to the
/// provider's renew page): see ``LCPLicense/renewLoan(with:prefersWebPage:)``.
public protocol LCPRenewDelegate: Sendable {
    /// The end date to ask for, at most `maximum` (`potential_rights.end`); nil lets the
    /// provider choose its default period.
    func preferredEndDate(maximum: Date?) async -> Date?

    /// Shows the provider's HTML renew page (the terminal prints its URL) and returns when the
    /// person is done with it.
    func presentWebPage(url: String) async
}
