import FoundationEssentials
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The program's diagnostic log: silent unless `LECTERN_LOG` names a level (`trace`, `debug`,
/// `info`, `notice`, `warning`, `error`), then written to standard error. In the terminal
/// interface standard error is the screen, so redirect it: `LECTERN_LOG=debug lectern 2>log`.
///
/// Libraries take their logger from here rather than from swift-log's global bootstrap, so that
/// nothing is printed by default (swift-log's own default writes `info` to standard error,
/// which would draw over the reader) and tests stay quiet. What is logged: fallbacks a person
/// could otherwise not see (a License Status Document or a revocation list that could not be
/// had, a state the database did not record) and the hosts and statuses of HTTP requests.
/// Never logged: passphrases, keys, tokens, decrypted content, URL queries.
public enum Diagnostics {
    /// The level `LECTERN_LOG` asks for; nil (nothing logged) when unset or not a level.
    public static let level: Logger.Level? = {
        guard let value = getenv("LECTERN_LOG").map({ String(cString: $0).lowercased() }) else { return nil }
        return Logger.Level(rawValue: value)
    }()

    /// A logger for one area of the program (`lectern.lcp`, `lectern.http`…).
    public static func logger(_ label: String) -> Logger {
        guard let level else { return Logger(label: label, factory: { _ in SwiftLogNoOpLogHandler() }) }
        var logger = Logger(label: label, factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = level
        return logger
    }

    /// `url` without its query, fragment and user information: what a log may say of a request.
    public static func redacted(_ url: String) -> String {
        var text = url
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<cut]) }
        // The authority is what follows "://" up to the next "/"; user information ends in "@".
        let parts = text.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return text }
        let rest = parts[1]
        let authority = rest.prefix { $0 != "/" }
        guard let at = authority.lastIndex(of: "@") else { return text }
        return parts[0] + "://" + rest[rest.index(after: at)...]
    }
}
