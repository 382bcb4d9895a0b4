import FoundationEssentials
import Synchronization

/// Hosts that just failed to connect or went silent, remembered for a short while so that the
/// next requests to them fail at once instead of each waiting out its own timeout.
///
/// A host is keyed by scheme, name and port. Any answer from it — whatever its status —
/// clears the record; an error that is the server's own (an HTTP status, a body too large) is
/// no sign of a dead host and records nothing.
public final class UnresponsiveHosts: Sendable {
    /// The record every ``CurlHTTPClient`` shares by default (one per process).
    public static let shared = UnresponsiveHosts()

    /// How long a failure is remembered, in seconds.
    public let memory: Double
    private let failures = Mutex<[String: (at: Double, error: HTTPError)]>([:])
    private let now: @Sendable () -> Double

    public init(memory: Double = 60, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.memory = memory
        self.now = now
    }

    /// The error to fail a request to `url` with, when its host failed a moment ago.
    public func recentFailure(for url: String) -> HTTPError? {
        guard let host = Self.host(of: url) else { return nil }
        let time = now()
        return failures.withLock { failures -> HTTPError? in
            guard let failure = failures[host] else { return nil }
            guard time - failure.at < memory else {
                failures[host] = nil
                return nil
            }
            let seconds = max(1, Int((memory - (time - failure.at)).rounded(.up)))
            return .unreachable("\(host) did not answer a moment ago (\(failure.error)); not tried again for \(seconds) s")
        }
    }

    /// Records the outcome of a failed request to `url`.
    public func failed(_ url: String, with error: HTTPError) {
        switch error {
        case .timedOut, .unreachable: break
        case .cancelled, .tooLarge, .refusedAddress, .other: return
        }
        guard let host = Self.host(of: url) else { return }
        let time = now()
        failures.withLock { $0[host] = (time, error) }
    }

    /// Records that `url`'s host answered.
    public func answered(_ url: String) {
        guard let host = Self.host(of: url) else { return }
        _ = failures.withLock { $0.removeValue(forKey: host) }
    }

    /// `scheme://host:port`, lower-cased, of an absolute URL.
    public static func host(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon].lowercased()
        let rest = url[url.index(after: colon)...]
        guard rest.hasPrefix("//") else { return nil }
        var authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var name = authority.lowercased()
        let hasPort = name.hasPrefix("[") ? name.contains("]:") : name.contains(":")
        if !hasPort { name += scheme == "https" ? ":443" : ":80" }
        return name.isEmpty ? nil : scheme + "://" + name
    }
}
