import FoundationEssentials
import Synchronization

/// One-time codes that open a reader page: what the reader's `o` hands the browser instead
/// of the reader page's URL, whose secret would otherwise sit on the browser's command line
/// (`/proc/PID/cmdline`, readable by every local user). A code opens the page once, within
/// ``lifetime``; after that, or after its first use, it is worth nothing.
final class OneTimeCodes: Sendable {
    /// How long a code waits for its browser.
    static let lifetime: Duration = .seconds(60)
    /// Codes not yet used are kept up to this many (the oldest forgotten first).
    static let remembered = 16

    private let codes = Mutex<[(code: String, expires: ContinuousClock.Instant)]>([])

    /// A new code.
    func mint() -> String {
        let code = ServerSecret().description
        let expires = ContinuousClock.now.advanced(by: Self.lifetime)
        codes.withLock { list in
            list.append((code, expires))
            if list.count > Self.remembered { list.removeFirst(list.count - Self.remembered) }
        }
        return code
    }

    /// Whether `candidate` is a code still unused and unexpired; it is spent either way.
    func redeem(_ candidate: Substring) -> Bool {
        let now = ContinuousClock.now
        return codes.withLock { list in
            list.removeAll { $0.expires < now }
            guard let index = list.firstIndex(where: { ServerSecret($0.code).matches(candidate) }) else { return false }
            list.remove(at: index)
            return true
        }
    }
}
