import FoundationEssentials
import Logging
import Shared

/// Finds the user key that opens a license, in this order (lcp.md §12):
/// 1. the credentials given to `open` (as a passphrase, and as a user key when they are 64
///    hexadecimal digits);
/// 2. the user keys stored for this license;
/// 3. those stored for the same provider and user;
/// 4. every stored user key (the most recently used first, bounded);
/// 5. the ``LCPAuthenticating`` (the prompt), again after each wrong answer, until it gives up.
///
/// Each candidate is tried with the key check only. A repository that fails is skipped —
/// never the prompt. The key that works is stored for next time (never the passphrase).
struct PassphraseLookup: Sendable {
    enum Outcome: Sendable {
        case found(String)
        /// Nothing opened the license: `missingPassphrase`, or `wrongPassphrase` when the
        /// given credentials were wrong and nobody could be asked again.
        case notFound(LCPError)
    }

    let client: any LCPClient
    let repository: (any LCPPassphraseRepository)?
    /// How many stored keys of other licenses are tried.
    let maxStoredCandidates: Int

    func find(for license: LicenseDocument, credentials: String?, authentication: (any LCPAuthenticating)?,
              allowUserInteraction: Bool, sender: (any Sendable)?) async -> Outcome {
        let json = license.text
        func check(_ candidates: [String]) -> String? {
            candidates.isEmpty ? nil : client.findOneValidPassphrase(jsonLicense: json, hashedPassphrases: candidates)
        }

        var credentialsWereWrong = false
        if let credentials, !credentials.isEmpty {
            if let key = check(Self.userKeys(from: credentials)) { return store(key, license) }
            credentialsWereWrong = true
        }
        // A broken repository must not keep the person from typing the passphrase: its
        // errors only skip that source.
        if let repository {
            let sources: [() -> [String]] = [
                { LCPLicense.log.attempt("reading the passphrases of the license") { () throws(LCPError) in
                    try repository.passphrases(licenseID: license.id) } ?? [] },
                { LCPLicense.log.attempt("reading the passphrases of the provider's user") { () throws(LCPError) in
                    try repository.passphrases(provider: license.provider, userID: license.user.id) } ?? [] },
                { LCPLicense.log.attempt("reading the stored passphrases") { () throws(LCPError) in
                    try repository.allPassphrases(limit: maxStoredCandidates) } ?? [] },
            ]
            var tried = Set<String>()
            for source in sources {
                let candidates = source().filter { tried.insert($0).inserted }
                if let key = check(candidates) { return store(key, license) }
            }
        }

        let wrong = LCPError.wrongPassphrase(hint: license.encryption.userKey.textHint, hintLink: license.link(LicenseRel.hint)?.href)
        guard let authentication else { return .notFound(credentialsWereWrong ? wrong : .missingPassphrase) }
        var reason: LCPAuthenticationReason = credentialsWereWrong ? .invalidPassphrase : .passphraseNotFound
        var askedAndWrong = false
        let authenticated = LCPAuthenticatedLicense(document: license)
        while let input = await authentication.retrievePassphrase(for: authenticated, reason: reason,
                                                                   allowUserInteraction: allowUserInteraction, sender: sender),
              !input.isEmpty {
            if let key = check(Self.userKeys(from: input)) { return store(key, license) }
            reason = .invalidPassphrase
            askedAndWrong = true
        }
        // Cancelling a prompt is not an error; given credentials that nobody corrected are.
        return .notFound(credentialsWereWrong && !askedAndWrong ? wrong : .missingPassphrase)
    }

    /// The user keys an input may stand for: the SHA-256 of its UTF-8 bytes, and the input
    /// itself when it is already one (64 hexadecimal digits).
    static func userKeys(from input: String) -> [String] {
        var keys = [BasicProfileLCPClient.userKey(passphrase: input)]
        if Hex.isSHA256(input) { keys.append(input.lowercased()) }
        return keys
    }

    private func store(_ key: String, _ license: LicenseDocument) -> Outcome {
        do {
            try repository?.addPassphrase(key, licenseID: license.id, provider: license.provider, userID: license.user.id)
        } catch {
            // The book opens; only the next opening asks again.
            LCPLicense.log.warning("license \(license.id): the passphrase was not remembered: \(error)")
        }
        return .found(key)
    }
}
