import AudioPlayback

/// An audio engine that records what it is asked and lets the test play mpv's part (`send`):
/// the audiobook player and the media overlay player are tested on it without sound.
@MainActor
public final class ScriptedEngine: AudioEngine {
    /// One request made to the engine.
    public enum Call: Equatable, Sendable {
        case load(track: Int, at: Double, paused: Bool)
        case seek(Double)
        case paused(Bool)
        case speed(Double)
        case shutdown
    }

    public var onEvent: ((AudioEngineEvent) -> Void)?
    /// Every request, in order.
    public var calls: [Call] = []
    public var outputName: String? { "scripted" }

    public init() {}

    public func load(track: Int, at time: Double, paused: Bool) { calls.append(.load(track: track, at: time, paused: paused)) }
    public func seek(to time: Double) { calls.append(.seek(time)) }
    public func setPaused(_ paused: Bool) { calls.append(.paused(paused)) }
    public func setSpeed(_ speed: Double) { calls.append(.speed(speed)) }
    public func shutdown() { calls.append(.shutdown) }

    /// The loads and seeks asked for, in order.
    public var moves: [Call] {
        calls.filter { if case .load = $0 { true } else if case .seek = $0 { true } else { false } }
    }

    /// The last load, seek or shutdown.
    public var lastMove: Call? { calls.last { if case .speed = $0 { false } else if case .paused = $0 { false } else { true } } }

    /// Plays mpv's part: delivers `event` as the engine would.
    public func send(_ event: AudioEngineEvent) { onEvent?(event) }
}
