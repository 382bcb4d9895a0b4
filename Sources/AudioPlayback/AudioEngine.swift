/// What an ``AudioEngine`` reports, on the main actor.
public enum AudioEngineEvent: Sendable, Equatable {
    /// Track `track` is loaded; its decoded duration when the decoder knows it.
    case loaded(track: Int, duration: Double?)
    /// The playback position in the current track, in seconds.
    case position(Double)
    /// A load or seek completed: audio at `position` has been decoded (the end of a seek's latency).
    case seekCompleted(position: Double)
    /// The decoded duration of the current track changed (or became known).
    case duration(Double)
    /// Track `track` played to its end.
    case ended(track: Int)
    /// Track `track` (nil: the player itself) failed.
    case failed(track: Int?, message: String)
    /// The system's sound device was asked for and none opened: playback goes on to no output.
    case noOutputDevice
}

/// Decodes and plays one track at a time: the seam between ``AudiobookPlayer`` (the model
/// over a publication) and the audio library (``MPVAudioEngine``), so that the model can be
/// driven by a scripted engine in tests.
@MainActor
public protocol AudioEngine: AnyObject {
    /// Receives the engine's events.
    var onEvent: ((AudioEngineEvent) -> Void)? { get set }
    /// Loads track `track` and starts at `time` seconds, paused or playing.
    func load(track: Int, at time: Double, paused: Bool)
    /// Seeks in the loaded track.
    func seek(to time: Double)
    func setPaused(_ paused: Bool)
    /// Playback rate (pitch kept).
    func setSpeed(_ speed: Double)
    /// The output actually in use (`pulse`, `alsa`, `null`…), nil before the first track.
    var outputName: String? { get }
    /// Stops and frees the engine; it is unusable afterwards.
    func shutdown()
}
