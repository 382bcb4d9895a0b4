import Foundation

/// Waiting for a state, never for a time: a condition is checked again and again until it
/// holds, and only a deadline far beyond any normal run (CI is a loaded 2-core machine) ends
/// the wait, with a failure that names what was awaited.
///
/// The deadline counts the time spent waiting, not the time of day: a gap between two checks
/// counts for at most ``longestCountedGap``. When the whole test process stalls (the two
/// cooperative threads held by tests that block on child processes, as a full `swift test`
/// does for minutes on CI), the awaited work and the wait stall together; counting that stall
/// failed every in-process test at once when the process resumed.
public enum StateWait {
    /// How long any wait for a state may take before the test fails.
    public static let deadline: Duration = .seconds(120)
    /// The most one gap between two checks counts towards the deadline.
    public static let longestCountedGap: Duration = .milliseconds(250)

    /// The time waited so far, stalls of the process left out.
    struct WaitedTime {
        let clock = ContinuousClock()
        var last: ContinuousClock.Instant
        var waited: Duration = .zero

        init() { last = clock.now }

        /// Counts the time since the last check, at most ``StateWait/longestCountedGap``.
        mutating func tick() -> Duration {
            let now = clock.now
            waited += min(now - last, StateWait.longestCountedGap)
            last = now
            return waited
        }
    }

    /// The state awaited never came.
    public struct Timeout: Error, CustomStringConvertible {
        public let what: String
        public let detail: String
        public var description: String { "timed out waiting for \(what)" + (detail.isEmpty ? "" : ":\n\(detail)") }
    }

    /// Checks `condition` every `interval` until it holds; throws ``Timeout`` (with `detail`,
    /// evaluated then) once `deadline` of waiting passed. Runs on the caller's actor, so the condition may
    /// read its state.
    public static func until(_ what: String, deadline: Duration = StateWait.deadline, interval: Duration = .milliseconds(10),
                             detail: () throws -> String = { "" }, isolation: isolated (any Actor)? = #isolation,
                             _ condition: () async throws -> Bool) async throws {
        var time = WaitedTime()
        while try await !condition() {
            guard time.tick() < deadline else { throw Timeout(what: what, detail: (try? detail()) ?? "") }
            try await Task.sleep(for: interval)
        }
    }

    /// ``until(_:deadline:interval:detail:_:)`` for synchronous code: blocks the calling thread
    /// between checks (never call it on a cooperative thread that the awaited work needs).
    public static func blocking(_ what: String, deadline: Duration = StateWait.deadline, interval: Duration = .milliseconds(5),
                                _ condition: () throws -> Bool) throws {
        var time = WaitedTime()
        while try !condition() {
            guard time.tick() < deadline else { throw Timeout(what: what, detail: "") }
            let (seconds, attoseconds) = interval.components
            usleep(UInt32(seconds) * 1_000_000 + UInt32(attoseconds / 1_000_000_000_000))
        }
    }
}
