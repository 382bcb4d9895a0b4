import AudiobookDRM
import FoundationEssentials
import Shared

/// The signed-audiobook protection of the command line: the built-in trusted issuers plus
/// those of `LECTERN_AUDIOBOOK_ISSUERS`, key sets cached in `$XDG_CACHE_HOME/lectern/jwks`.
///
/// `LECTERN_AUDIOBOOK_ISSUERS` holds entries separated by spaces, each `ISSUER` (keys at
/// `ISSUER/.well-known/jwks.json`) or `ISSUER=KEY_SET_URL`; an entry for a built-in issuer
/// replaces its key-set URL. Key sets are fetched over HTTPS only (HTTP to 127.0.0.1 for tests).
///
/// `LECTERN_TEST_NOW` (undocumented in the help, for tests only) pins the clock of the checks
/// to an RFC 3339 instant, so that expired test vectors can be checked inside their period.
enum AudiobookDRMSetup {
    static let issuersVariable = "LECTERN_AUDIOBOOK_ISSUERS"
    static let nowVariable = "LECTERN_TEST_NOW"

    static func makeProtection(environment: [String: String] = ProcessInfo.processInfo.environment) -> FeedbooksAudiobookProtection {
        var configuration = AudiobookDRMConfiguration()
        for (issuer, url) in parseIssuers(environment[issuersVariable] ?? "") {
            configuration.trust(issuer: issuer, keySetURL: url)
        }
        if let text = environment[nowVariable], let pinned = RFC3339Date.parse(text.trimmed) {
            configuration.now = { pinned }
        }
        return FeedbooksAudiobookProtection(configuration: configuration)
    }

    /// `ISSUER[=URL]` entries; the issuer ends at the first `=` (issuers are origins).
    static func parseIssuers(_ text: String) -> [(issuer: String, url: String?)] {
        text.split(whereSeparator: \.isWhitespace).compactMap { entry in
            guard let equals = entry.firstIndex(of: "=") else { return (String(entry), nil) }
            let issuer = String(entry[..<equals]), url = String(entry[entry.index(after: equals)...])
            guard !issuer.isEmpty else { return nil }
            return (issuer, url.isEmpty ? nil : url)
        }
    }
}
