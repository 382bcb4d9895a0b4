/// Audio for one sentence, with where its words start.
public struct SynthesizedSpeech: Sendable {
    /// Mono signed 16-bit samples at the synthesiser's ``SpeechSynthesizer/sampleRate``.
    public var samples: [Int16]
    /// The words in order: their scalar offset and length in the text given, and the sample
    /// where each starts.
    public var words: [WordMark]

    public init(samples: [Int16], words: [WordMark]) {
        self.samples = samples
        self.words = words
    }
}

/// Where a word starts in synthesised audio.
public struct WordMark: Sendable, Equatable {
    /// Offset of its first Unicode scalar in the text synthesised.
    public var scalarOffset: Int
    /// Its length in scalars.
    public var length: Int
    /// The sample where it is heard.
    public var sample: Int

    public init(scalarOffset: Int, length: Int, sample: Int) {
        self.scalarOffset = scalarOffset
        self.length = length
        self.sample = sample
    }
}

/// A speech engine that synthesises to memory (the speaking pipeline plays the audio itself,
/// so that it knows when each sentence and word is heard).
public protocol SpeechSynthesizer: Sendable {
    /// Samples per second of what it returns.
    var sampleRate: Int { get }
    /// A name for messages (`espeak-ng 1.51`).
    var name: String { get }
    /// The largest speed it can speak at itself; a faster one is played faster.
    var maximumSpeed: Double { get }
    /// Synthesises `text` in `language` (a BCP 47 tag) at `speed` (1: the voice's own rate).
    /// Called from one thread at a time.
    func synthesize(_ text: String, language: String?, speed: Double) throws(SpeechError) -> SynthesizedSpeech
}
