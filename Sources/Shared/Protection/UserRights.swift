/// The copy and print rights a protection grants, consumed through this API only
/// (Readium Content Protection proposal): the one channel through which the terminal, the
/// publication server and the command line ask, spend and learn what is left.
///
/// The answers are async because a protection may keep its counters in a database (LCP):
/// an implementation does its blocking work off the cooperative pool. Values change while a
/// publication is open: ask again each time an action is offered.
public protocol UserRights: Sendable {
    /// What is left to copy and print now, without consuming anything.
    var allowance: RightsAllowance { get async }
    /// Consumes the right to copy `text`, all or nothing: decided and recorded at once, with
    /// what is left after the decision. A protection that counts characters counts Swift
    /// `Character`s (what `String.count` gives).
    func copy(text: String) async -> RightsDecision
    /// Consumes the right to print `pages` pages, all or nothing, likewise.
    func print(pages: Int) async -> RightsDecision
}

extension UserRights {
    /// Whether copying is possible at all now (to grey out a Copy action).
    public var canCopy: Bool { get async { await allowance.copy.allows(1) } }
    /// Whether printing is possible at all now.
    public var canPrint: Bool { get async { await allowance.print.allows(1) } }
    /// Whether `text` may be copied, without consuming anything.
    public func canCopy(text: String) async -> Bool { await allowance.copy.allows(text.count) }
    /// Whether `pages` pages may be printed, without consuming anything.
    public func canPrint(pages: Int) async -> Bool { await allowance.print.allows(pages) }
}

/// Everything allowed, uncounted: unprotected publications and protections without rights
/// (ZIP and PDF passwords, open books).
public struct UnrestrictedUserRights: UserRights {
    public init() {}
    public var allowance: RightsAllowance { .unlimited }
    public func copy(text: String) async -> RightsDecision { .granted(.unlimited) }
    public func print(pages: Int) async -> RightsDecision { .granted(.unlimited) }
}

/// Nothing allowed: restricted publications.
public struct AllRestrictedUserRights: UserRights {
    public init() {}
    public var allowance: RightsAllowance { .denied }
    public func copy(text: String) async -> RightsDecision { .refused(.denied) }
    public func print(pages: Int) async -> RightsDecision { .refused(.denied) }
}
