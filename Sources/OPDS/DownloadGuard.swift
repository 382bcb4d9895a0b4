import Synchronization

/// Holds a download to its ``DownloadLimits``: told the progress, it answers the transfer's
/// cancellation check, and says why it stopped it. For transfers Lectern does not drive itself
/// too (an LCP borrow's publication, through its progress and cancellation callbacks).
/// Called from the transfer's thread.
public final class DownloadGuard: Sendable {
    private struct State {
        var checkpoint: ContinuousClock.Instant
        var bytesAtCheckpoint: Int64 = 0
        var received: Int64 = 0
        var reason: CatalogDownload.Failure?
    }

    private let limits: DownloadLimits
    private let state: Mutex<State>

    /// The stall clock starts now: waiting for the answer counts.
    public init(_ limits: DownloadLimits) {
        self.limits = limits
        state = Mutex(State(checkpoint: .now))
    }

    /// Why the download was stopped (``CatalogDownload/Failure/tooLarge(_:)`` or
    /// ``CatalogDownload/Failure/stalled(_:)``); nil while it keeps to its limits.
    public var reason: CatalogDownload.Failure? { state.withLock { $0.reason } }

    /// The bytes received so far, and the length announced, if any.
    public func observe(received: Int64, expected: Int64?) {
        state.withLock { state in
            // A redirect or sign-in starts the body again.
            if received < state.received { state.bytesAtCheckpoint = received }
            state.received = received
            if received > limits.maxBytes || (expected ?? 0) > limits.maxBytes {
                state.reason = state.reason ?? .tooLarge(limits.maxBytes)
            }
            if received - state.bytesAtCheckpoint >= limits.stallBytes {
                state.checkpoint = .now
                state.bytesAtCheckpoint = received
            }
        }
    }

    /// Whether the transfer must stop: too large, or less than `stallBytes` arrived in
    /// `stallSeconds`.
    public func mustStop() -> Bool {
        state.withLock { state in
            if state.reason == nil, ContinuousClock.now - state.checkpoint > .seconds(limits.stallSeconds) {
                state.reason = .stalled(limits.stallSeconds)
            }
            return state.reason != nil
        }
    }
}
