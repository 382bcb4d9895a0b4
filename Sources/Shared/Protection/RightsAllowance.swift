/// How much of one consumable right (characters to copy, pages to print) is left.
public enum RightAllowance: Sendable, Hashable {
    /// Not counted: as much as asked.
    case unlimited
    /// Counted: this much is left (0 when it is used up or cannot be counted).
    case left(Int)
    /// Not allowed at all, and not counted (a restricted publication, a PDF's permissions).
    case denied

    /// What is left when it is counted; nil when it is unlimited or denied.
    public var amount: Int? {
        if case .left(let amount) = self { return amount }
        return nil
    }

    /// Whether `amount` may be consumed. A negative amount never may; nothing (0) may
    /// whenever the right is counted, even used up.
    public func allows(_ amount: Int) -> Bool {
        guard amount >= 0 else { return false }
        switch self {
        case .unlimited: return true
        case .left(let left): return left >= amount
        case .denied: return false
        }
    }
}

/// What a protection still allows to copy and print, read at one moment.
public struct RightsAllowance: Sendable, Hashable {
    /// Characters that may still be copied.
    public var copy: RightAllowance
    /// Pages that may still be printed.
    public var print: RightAllowance
    /// Why the rights cannot be counted now (their database could not be read), or nil:
    /// while set, nothing can be copied or printed, and this is the reason to give.
    public var problem: String?

    public init(copy: RightAllowance, print: RightAllowance, problem: String? = nil) {
        self.copy = copy
        self.print = print
        self.problem = problem
    }

    /// Everything, uncounted.
    public static let unlimited = RightsAllowance(copy: .unlimited, print: .unlimited)
    /// Nothing, uncounted.
    public static let denied = RightsAllowance(copy: .denied, print: .denied)
}

/// The answer to a copy or a print: granted (and consumed) or refused (nothing consumed),
/// with what is left after it — read in the same transaction that decided.
public enum RightsDecision: Sendable, Hashable {
    case granted(RightsAllowance)
    case refused(RightsAllowance)

    public var isGranted: Bool {
        if case .granted = self { return true }
        return false
    }

    /// What is left after the decision.
    public var allowance: RightsAllowance {
        switch self {
        case .granted(let allowance), .refused(let allowance): allowance
        }
    }
}
