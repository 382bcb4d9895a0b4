/// What the speaking pipeline reports, in the order it is heard.
public enum SpeechEvent: Sendable, Equatable {
    /// Sentence `sentence` starts being heard; `gap` is the silence since the sentence before
    /// ended (the synthesiser's pauses plus any wait for audio), nil for the first.
    case sentence(SpokenSentence, gap: Double?)
    /// A word of the current sentence starts: its chapter positions.
    case word(href: String, range: Range<Int>)
    /// Everything was said.
    case finished
    /// Synthesis failed; the pipeline stopped.
    case failed(SpeechError)
}
