import LibEspeak

/// espeak-ng as a ``SpeechSynthesizer``: the voice follows the text's language unless one is
/// named; the speed is espeak-ng's rate (175 words a minute at 1, pitch unchanged).
public final class EspeakSpeechSynthesizer: SpeechSynthesizer {
    /// The environment variable naming the folder of espeak-ng's voice data (the one holding
    /// `espeak-ng-data`, or that folder itself), when it is not where the library looks.
    public static let dataEnvironmentVariable = "LECTERN_ESPEAK_DATA"
    /// The environment variable naming the libespeak-ng file to load instead of the system's.
    public static let libraryEnvironmentVariable = "LECTERN_ESPEAK_LIBRARY"
    /// espeak-ng's rate at speed 1, in words per minute.
    static let normalRate = 175.0

    private let engine: EspeakSynthesizer
    private let voiceName: String?
    public var sampleRate: Int { engine.sampleRate }
    public let name: String
    public var maximumSpeed: Double { 450 / Self.normalRate }

    /// Loads libespeak-ng (the library and data the environment names, else the system's).
    /// - Parameter voice: an espeak-ng voice name (`en-gb`, `fr`…) that overrides the language.
    public init(voice: String? = nil, environment: [String: String]) throws(SpeechError) {
        let library = environment[Self.libraryEnvironmentVariable].flatMap { $0.isEmpty ? nil : $0 }
        let data = environment[Self.dataEnvironmentVariable].flatMap { $0.isEmpty ? nil : $0 }
        do {
            engine = try EspeakSynthesizer.shared(library: library, dataPath: data)
        } catch {
            throw Self.speechError(error)
        }
        name = "espeak-ng \(engine.version)"
        voiceName = voice
        if let voice {
            do { try engine.setVoice(name: voice) } catch { throw Self.speechError(error) }
        }
    }

    public func synthesize(_ text: String, language: String?, speed: Double) throws(SpeechError) -> SynthesizedSpeech {
        do {
            if voiceName == nil { try engine.setVoice(language: language ?? "en") }
            engine.setRate(wordsPerMinute: Int((Self.normalRate * min(max(speed, 0.1), maximumSpeed)).rounded()))
            var audio = try engine.synthesize(text)
            audio.samples += [Int16](repeating: 0, count: Int(Self.pause(after: text) / speed * Double(sampleRate)))
            return SynthesizedSpeech(samples: audio.samples, words: audio.words.map {
                WordMark(scalarOffset: $0.textOffset, length: $0.length, sample: $0.sample)
            })
        } catch {
            // A language without a voice of its own is read with the default one rather than not at all.
            if case .voiceNotFound = error, voiceName == nil, language != nil {
                return try synthesize(text, language: nil, speed: speed)
            }
            throw Self.speechError(error)
        }
    }

    /// The silence after `text` at speed 1, in seconds. espeak-ng ends a text where its voice
    /// ends, but pauses between the sentences of one text (314 ms after a full stop at its
    /// normal rate, measured with espeak-ng 1.51): sentences synthesised one at a time get that
    /// pause back so that they sound as one text; a clause cut from a long sentence, a shorter one.
    static func pause(after text: String) -> Double {
        guard let last = text.last(where: { !$0.isWhitespace }) else { return 0 }
        return ".!?…。！？;:\"”»)」』".contains(last) || text.last?.isNewline == true ? 0.3 : 0.1
    }

    /// The voices installed (espeak-ng's identifiers).
    public func voices() -> [String] { engine.voices() }

    static func speechError(_ error: EspeakError) -> SpeechError {
        switch error {
        case .libraryMissing: return .engineMissing(detail: error.description)
        case .dataMissing, .initializationFailed: return .voiceDataMissing(detail: error.description)
        case .voiceNotFound(let voice): return .noVoice(voice)
        case .synthesisFailed: return .engineFailed(error.description)
        }
    }
}
