/// Where synthesised speech is played: PCM appended at the end of what is queued, played in
/// order without a gap, the position reported in samples.
public protocol PCMSink: AnyObject, Sendable {
    /// Samples per second it plays.
    var sampleRate: Int { get }
    /// Queues mono 16-bit `samples` after those queued before (any thread).
    func append(_ samples: [Int16])
    /// How many samples have been heard so far (never more than were appended).
    var playedSamples: Int { get }
    /// The time the sink waited for samples while playing (an underrun: a gap in the speech).
    var starvedSeconds: Double { get }
    func setPaused(_ paused: Bool)
    /// The playback rate on top of the synthesiser's (1: as synthesised).
    func setRate(_ rate: Double)
    /// Stops playing and releases the output.
    func close()
    /// The output in use, for messages (`null`, `pulse`…).
    var outputName: String { get }
}
