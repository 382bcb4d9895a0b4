import Synchronization

/// Plays to nothing in real time (times the rate): for tests and machines without a sound
/// device. The position moves with a clock while samples are queued and waits when none are,
/// as a sound card would.
public final class NullPCMSink: PCMSink {
    private struct State {
        var queued = 0
        /// The position when the clock was last anchored, and when.
        var anchorSamples = 0.0
        var anchorTime: ContinuousClock.Instant
        var paused = false
        var rate = 1.0
        var starved = 0.0
        /// Since when the queue has been empty (while playing), if it is.
        var starvedSince: ContinuousClock.Instant?
    }

    public let sampleRate: Int
    private let clock = ContinuousClock()
    private let state: Mutex<State>

    public init(sampleRate: Int) {
        self.sampleRate = sampleRate
        state = Mutex(State(anchorTime: clock.now))
    }

    public var outputName: String { "null" }

    public func append(_ samples: [Int16]) {
        let now = clock.now
        state.withLock { state in
            Self.advance(&state, to: now, sampleRate: sampleRate)
            if let since = state.starvedSince {
                state.starved += Self.seconds(now - since)
                state.starvedSince = nil
            }
            state.queued += samples.count
        }
    }

    public var playedSamples: Int {
        let now = clock.now
        return state.withLock { state in
            Self.advance(&state, to: now, sampleRate: sampleRate)
            return Int(state.anchorSamples)
        }
    }

    public var starvedSeconds: Double { state.withLock { $0.starved } }

    public func setPaused(_ paused: Bool) {
        let now = clock.now
        state.withLock { state in
            Self.advance(&state, to: now, sampleRate: sampleRate)
            state.paused = paused
        }
    }

    public func setRate(_ rate: Double) {
        let now = clock.now
        state.withLock { state in
            Self.advance(&state, to: now, sampleRate: sampleRate)
            state.rate = max(0.01, rate)
        }
    }

    public func close() {
        setPaused(true)
    }

    /// Moves the position to `now`, stopping at the end of what is queued (the clock then
    /// waits there: the queue ran dry).
    private static func advance(_ state: inout State, to now: ContinuousClock.Instant, sampleRate: Int) {
        defer { state.anchorTime = now }
        guard !state.paused else { return }
        let moved = seconds(now - state.anchorTime) * Double(sampleRate) * state.rate
        let target = state.anchorSamples + moved
        if target >= Double(state.queued) {
            if state.starvedSince == nil, state.queued > 0 {
                // When the last sample was heard, not now: the wait began then.
                let late = (target - Double(state.queued)) / (Double(sampleRate) * state.rate)
                state.starvedSince = now - .nanoseconds(Int64(late * 1e9))
            }
            state.anchorSamples = Double(state.queued)
        } else {
            state.anchorSamples = target
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
