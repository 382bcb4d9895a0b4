import Foundation

/// Waiting for a state, never for a time: a condition is checked again and again until it
/// holds, and only a deadline far beyond any normal run (CI is a loaded 2-core machine) ends
/// the wait, with a failure that names what was awaited.
public enum StateWait {
    /// How long any wait for a state may take before the test fails.
    public static let deadline: Duration = .seconds(120)

    /// The state awaited never came.
    public struct Timeout: Error, CustomStringConvertible {
        public let what: String
        public let detail: String
        public var description: String { "timed out waiting for \(what)" + (detail.isEmpty ? "" : ":\n\(detail)") }
    }

    /// Checks `condition` every `interval` until it holds; throws ``Timeout`` (with `detail`,
    /// evaluated then) once `deadline` passed. Runs on the caller's actor, so the condition may
    /// read its state.
    public static func until(_ what: String, deadline: Duration = StateWait.deadline, interval: Duration = .milliseconds(10),
                             detail: () throws -> String = { "" }, isolation: isolated (any Actor)? = #isolation,
                             _ condition: () async throws -> Bool) async throws {
        let clock = ContinuousClock(), end = clock.now + deadline
        while try await !condition() {
            guard clock.now < end else { throw Timeout(what: what, detail: (try? detail()) ?? "") }
            try await Task.sleep(for: interval)
        }
    }

    /// ``until(_:deadline:interval:detail:_:)`` for synchronous code: blocks the calling thread
    /// between checks (never call it on a cooperative thread that the awaited work needs).
    public static func blocking(_ what: String, deadline: Duration = StateWait.deadline, interval: Duration = .milliseconds(5),
                                _ condition: () throws -> Bool) throws {
        let clock = ContinuousClock(), end = clock.now + deadline
        while try !condition() {
            guard clock.now < end else { throw Timeout(what: what, detail: "") }
            let (seconds, attoseconds) = interval.components
            usleep(UInt32(seconds) * 1_000_000 + UInt32(attoseconds / 1_000_000_000_000))
        }
    }
}
