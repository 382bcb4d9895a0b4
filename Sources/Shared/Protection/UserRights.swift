/// The copy and print rights a protection grants, consumed through this API only
/// (Readium Content Protection proposal). Values may change while a publication is open:
/// ask again each time an action is offered.
public protocol UserRights: Sendable {
    /// Whether copying is possible at all now (to grey out a Copy action).
    var canCopy: Bool { get }
    /// Whether `text` may be copied, without consuming anything.
    func canCopy(text: String) -> Bool
    /// Consumes the right to copy `text`; returns whether it may be copied. All or nothing.
    func copy(text: String) -> Bool
    /// Whether printing is possible at all now.
    var canPrint: Bool { get }
    /// Whether `pageCount` pages may be printed, without consuming anything.
    func canPrint(pageCount: Int) -> Bool
    /// Consumes the right to print `pageCount` pages; returns whether they may be printed.
    func print(pageCount: Int) -> Bool
}

/// Everything allowed: unprotected publications and protections without rights.
public struct UnrestrictedUserRights: UserRights {
    public init() {}
    public var canCopy: Bool { true }
    public func canCopy(text: String) -> Bool { true }
    public func copy(text: String) -> Bool { true }
    public var canPrint: Bool { true }
    public func canPrint(pageCount: Int) -> Bool { true }
    public func print(pageCount: Int) -> Bool { true }
}

/// Nothing allowed: restricted publications.
public struct AllRestrictedUserRights: UserRights {
    public init() {}
    public var canCopy: Bool { false }
    public func canCopy(text: String) -> Bool { false }
    public func copy(text: String) -> Bool { false }
    public var canPrint: Bool { false }
    public func canPrint(pageCount: Int) -> Bool { false }
    public func print(pageCount: Int) -> Bool { false }
}
