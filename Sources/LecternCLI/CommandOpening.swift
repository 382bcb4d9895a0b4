import FoundationEssentials
import Shared

extension PublicationLoader {
    /// Opens `path` for a command that does not prompt. When it cannot be opened, prints why on
    /// standard error (and, with `json`, as `{"path", "error"}` on standard output) and exits
    /// with ``ExitStatus/cannotOpen``.
    /// - Parameter report: says what it can of a publication that cannot be opened, returning
    ///   false to leave it to the usual one-line error.
    func openForCommand(_ path: String, credentials: CredentialsOption, json: Bool = false,
                        report: ((any Error) async -> Bool)? = nil) async throws -> Opened {
        do {
            return try await open(path, credentials: credentials.credentials)
        } catch {
            if let report, await report(error) {
                Output.flush()
                throw ExitStatus.cannotOpen
            }
            var restriction: ProtectionRestriction?
            if case .opening(let opening) = error { restriction = opening.protectionRestriction }
            Output.error("\(path): \(error.userMessage)" + ProtectionAdvice.suffix(restriction))
            if json { Output.json(.object(JSONObject(["path": .string(path), "error": .string(error.userMessage)]))) }
            Output.flush()
            throw ExitStatus.cannotOpen
        }
    }
}

extension Publication {
    /// Exits with ``ExitStatus/restricted`` after saying why when the publication is locked by
    /// its protection (a missing passphrase, an expired loan…): its content cannot be read.
    func requireUnlocked(path: String) throws {
        guard isRestricted else { return }
        Output.error("\(path): \(protectionError.map(userMessage(of:)) ?? "the publication is locked")"
                     + ProtectionAdvice.suffix(protectionRestriction))
        throw ExitStatus.restricted
    }
}

/// What the commands advise about a restriction, after its message on the same line: its
/// advice, and how to give credentials on the command line (chosen by case, like the
/// reader's screen).
enum ProtectionAdvice {
    /// ` — advice`, or nothing when the failure is not about protection.
    static func suffix(_ restriction: ProtectionRestriction?) -> String {
        restriction.map { " — " + text($0) } ?? ""
    }

    /// The advice, with the option that gives credentials.
    static func text(_ restriction: ProtectionRestriction) -> String {
        switch restriction {
        case .credentialsRequired(let need):
            restriction.advice + " Give it with --\(need.kind == .passphrase ? "passphrase" : "password")."
        case .loanInactive, .untrusted, .unsupported, .unavailable:
            restriction.advice
        }
    }
}
