/// What each restriction says to a person, in one place: the reader's restricted screen and
/// the command line show these, so a case reads the same everywhere. The advice names no key
/// or command of one interface: each adds its own way to try again when ``canRetry``.
extension ProtectionRestriction: UserMessageConvertible {
    /// What is wrong, in one or two sentences.
    public var message: String {
        switch self {
        case .credentialsRequired(let need): Self.message(need)
        case .loanInactive(let state, _): Self.message(state)
        case .untrusted(let reason): Self.message(reason)
        case .unsupported(let scheme): "This publication is protected with \(scheme), which Lectern cannot open."
        case .unavailable(let reason): Self.message(reason)
        }
    }

    public var userMessage: String { message }

    /// What the person can do about it.
    public var advice: String {
        switch self {
        case .credentialsRequired(let need):
            need.kind == .passphrase
                ? "It opens with the passphrase its provider gave you" + (need.hint == nil ? "." : "; the hint says which it is.")
                : "It opens with its own password (the one it was shared with)."
        case .loanInactive(let state, let renewable): Self.advice(state, renewable: renewable)
        case .untrusted(let reason): Self.advice(reason)
        case .unsupported(let scheme):
            "Read it with an application that supports \(scheme), or ask the provider for a copy without it."
        case .unavailable(let reason): Self.advice(reason)
        }
    }

    /// Whether opening it again may succeed without anything changing outside Lectern:
    /// asking for the passphrase again, a renewal made from the license details, a server or a
    /// database that answers the next time. Never for a returned, revoked or untrusted book.
    public var canRetry: Bool {
        switch self {
        case .credentialsRequired: true
        case .loanInactive(.expired, let renewable): renewable
        case .loanInactive: false
        case .untrusted, .unsupported: false
        case .unavailable(.damaged): false
        case .unavailable: true
        }
    }

    // MARK: - Messages

    private static func message(_ need: CredentialsNeed) -> String {
        let base = switch (need.kind, need.refused) {
        case (.passphrase, true): "Wrong passphrase."
        case (.passphrase, false): "A passphrase is required to open this publication."
        case (.password, true): "Incorrect password."
        case (.password, false): "A password is required to open this publication."
        }
        return base + (need.hint.map { " Hint: \($0)" } ?? "")
    }

    private static func message(_ state: LoanInactivity) -> String {
        switch state {
        case .notStarted(let date): date.map { "This loan starts on \(RFC3339Date.display($0))." } ?? "This loan has not started yet."
        case .expired(let date): date.map { "This loan expired on \(RFC3339Date.display($0))." } ?? "This loan has expired."
        case .returned(let date): date.map { "This book was returned on \(RFC3339Date.display($0))." } ?? "This book was returned."
        case .revoked(let date):
            date.map { "This license was revoked by its provider on \(RFC3339Date.display($0))." } ?? "This license was revoked by its provider."
        case .cancelled(let date): date.map { "This loan was cancelled on \(RFC3339Date.display($0))." } ?? "This loan was cancelled."
        }
    }

    private static func message(_ reason: UntrustedReason) -> String {
        switch reason {
        case .certificateRevoked: "The provider certificate that signed this license has been revoked."
        case .unknownSigner: "It was signed by a provider Lectern does not trust."
        case .certificateNotValidWhenIssued(let date):
            "The provider certificate was not valid when this license was issued (\(RFC3339Date.display(date)))."
        case .signatureInvalid: "Its signature does not match: the file was changed after it was signed."
        case .unverifiable(let detail): detail
        }
    }

    private static func message(_ reason: UnavailableReason) -> String {
        switch reason {
        case .unreachable(let detail): detail ?? "A server the protection needs cannot be reached."
        case .busy: "The license is being checked by another request."
        case .storage(let detail): detail ?? "Lectern's license database could not be used."
        case .damaged(let detail): detail ?? "The publication or its license is damaged."
        case .unexplained(let detail): detail ?? "The publication is locked by its protection."
        }
    }

    // MARK: - Advice

    private static func advice(_ state: LoanInactivity, renewable: Bool) -> String {
        switch state {
        case .notStarted: "Open it again once the loan has started."
        case .expired where renewable:
            "Renew the loan from its license details (L on the bookshelf, or lectern license renew), then open it again."
        case .expired: "This loan cannot be renewed: borrow the book again from its provider."
        case .returned: "A returned book cannot be read on this device: borrow it again from its provider."
        case .revoked: "A revoked license cannot be read on this device: ask the provider why, or borrow the book again."
        case .cancelled: "A cancelled loan cannot be read: borrow the book again from its provider."
        }
    }

    private static func advice(_ reason: UntrustedReason) -> String {
        switch reason {
        case .certificateRevoked:
            "No license signed with a revoked certificate can be trusted, whatever its dates: ask the provider for a new copy of the book."
        case .unknownSigner:
            "Get the book from a provider Lectern trusts, or add this provider's root certificate or keys to Lectern's trust settings."
        case .certificateNotValidWhenIssued: "Ask the provider for a new license for this book."
        case .signatureInvalid: "Download the book again from its provider: this copy cannot be trusted."
        case .unverifiable: "Download the book again, or read it with an application that can check its signature."
        }
    }

    private static func advice(_ reason: UnavailableReason) -> String {
        switch reason {
        case .unreachable: "Check the network connection, then open it again."
        case .busy: "Open it again in a moment."
        case .storage: "Check the free space and the permissions of Lectern's data folder, then open it again."
        case .damaged: "Download the book again from its provider."
        case .unexplained: "Open it again; if it stays locked, get a new copy from its provider."
        }
    }
}
