/// Something that says a stream of sentences and reports what is heard as ``SpeechEvent``s:
/// the espeak-ng pipeline (``SpeechPipeline``, which plays the audio itself) or
/// speech-dispatcher (``SpeechdSpeaker``, whose server plays it and reports index marks).
public protocol SentenceSpeaker: AnyObject, Sendable {
    /// The engine, for messages (`espeak-ng 1.51`, `speech-dispatcher`).
    var name: String { get }
    /// Where the sound goes (`mpv`, `null`, `speech-dispatcher`).
    var outputName: String { get }
    /// Starts saying the sentences of `source`.
    func start(_ source: @escaping SpeechPipeline.Source)
    /// Stops saying anything; no event follows.
    func stop()
    func setPaused(_ paused: Bool)
    /// The events heard since the last call, in order (for a caller that also watches a clock).
    func poll() -> [SpeechEvent]
    /// The events heard, pushed as they happen (one consumer; use either this or ``poll()``).
    var events: AsyncStream<SpeechEvent> { get }
}

/// Which engine reads aloud.
public enum SpeechEngineChoice: String, Sendable, CaseIterable {
    /// speech-dispatcher when its server answers, else espeak-ng.
    case automatic = "auto"
    case speechDispatcher = "speech-dispatcher"
    case espeak = "espeak-ng"

    /// `LECTERN_SPEECH_ENGINE` of `environment` (`auto` when unset or unknown).
    public static func from(environment: [String: String]) -> SpeechEngineChoice {
        environment["LECTERN_SPEECH_ENGINE"].flatMap(SpeechEngineChoice.init(rawValue:)) ?? .automatic
    }
}

/// Makes the speaker chosen.
public enum SentenceSpeakers {
    /// - Parameters:
    ///   - voice: an espeak-ng voice name (espeak-ng only).
    ///   - nullOutput: no sound wanted: espeak-ng to no device, unless speech-dispatcher is
    ///     asked for by name (its server chooses its output).
    ///   - speed: 1 is the voice's own rate.
    /// Blocking (loads libraries, connects): call off the main actor.
    public static func make(_ choice: SpeechEngineChoice, voice: String? = nil, nullOutput: Bool, speed: Double,
                            environment: [String: String]) throws(SpeechError) -> any SentenceSpeaker {
        if choice == .speechDispatcher || (choice == .automatic && !nullOutput && voice == nil) {
            do {
                return try SpeechdSpeaker(environment: environment, speed: speed)
            } catch {
                if choice == .speechDispatcher { throw error }
            }
        }
        let synthesizer = try EspeakSpeechSynthesizer(voice: voice, environment: environment)
        let sink = try SpeechOutput.sink(null: nullOutput, sampleRate: synthesizer.sampleRate)
        return SpeechPipeline(synthesizer: synthesizer, sink: sink, speed: speed)
    }
}
