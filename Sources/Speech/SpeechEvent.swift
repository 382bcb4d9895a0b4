/// What the speaking pipeline reports, in the order it is heard.
public enum SpeechEvent: Sendable, Equatable {
    /// Sentence `sentence` starts being heard, after `boundary` (nil for the first).
    case sentence(SpokenSentence, boundary: SentenceBoundary?)
    /// A word of the current sentence starts: its chapter positions.
    case word(href: String, range: Range<Int>)
    /// Everything was said.
    case finished
    /// Synthesis failed; the pipeline stopped.
    case failed(SpeechError)
}

/// What was heard between two sentences.
public struct SentenceBoundary: Sendable, Equatable {
    /// Seconds of silence the synthesiser put there (the end of one sentence, the start of the
    /// next): the voice's own pause, the same as in one text.
    public var pause: Double
    /// Seconds the output waited for the next sentence's audio (an underrun): the gap the
    /// pipeline adds, 0 when the next sentence was synthesised in time.
    public var wait: Double
}
