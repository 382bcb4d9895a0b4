import Speech
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A synthesiser that returns a known length of audio per sentence, one word per space.
private final class ScriptedSynthesizer: SpeechSynthesizer {
    let sampleRate = 1_000
    let name = "scripted"
    let maximumSpeed = 2.0
    let calls = Mutex<[Double]>([])
    /// Microseconds each synthesis takes.
    let delay: UInt32

    init(delay: UInt32 = 0) { self.delay = delay }

    func synthesize(_ text: String, language: String?, speed: Double) throws(SpeechError) -> SynthesizedSpeech {
        calls.withLock { $0.append(speed) }
        if delay > 0 { usleep(delay) }
        var words: [WordMark] = []
        var offset = 0
        for word in text.split(omittingEmptySubsequences: false, whereSeparator: \.isWhitespace) {
            if !word.isEmpty { words.append(WordMark(scalarOffset: offset, length: word.unicodeScalars.count, sample: words.count * 20)) }
            offset += word.unicodeScalars.count + 1
        }
        return SynthesizedSpeech(samples: [Int16](repeating: 1_000, count: max(1, words.count) * 20), words: words)
    }
}

/// Runs `pipeline` to its end, polling (the synthesis runs on its own Dispatch thread), and
/// returns every event.
private func events(of pipeline: SpeechPipeline) async throws -> [SpeechEvent] {
    var all: [SpeechEvent] = []
    while true {
        let new = pipeline.poll()
        all += new
        if new.contains(where: { if case .finished = $0 { true } else if case .failed = $0 { true } else { false } }) { return all }
        try await Task.sleep(for: .milliseconds(2))
    }
}

/// The sentences of `text`, one at a time (also SpeechdSpeakerTests' source).
func source(_ text: SpeakableText) -> SpeechPipeline.Source {
    let next = Mutex(0)
    return { () throws(SpeechError) -> SpokenSentence? in
        next.withLock { index in
            guard index < text.sentences.count else { return nil }
            defer { index += 1 }
            return text.spoken(sentence: index)
        }
    }
}

@Suite struct SpeechPipelineTests {
    @Test func sentencesThenTheirWordsAreHeardInOrderToTheEnd() async throws {
        let text = SpeakableText(href: "c.xhtml", text: "One two three. Four five.\n\nSix seven eight nine. * * *\nTen.", language: "en")
        let synthesizer = ScriptedSynthesizer()
        let pipeline = SpeechPipeline(synthesizer: synthesizer, sink: NullPCMSink(sampleRate: 1_000), speed: 4)
        pipeline.start(source(text))
        let heard = try await events(of: pipeline)
        var sentences: [Range<Int>] = []
        var words: [String] = []
        for event in heard {
            switch event {
            case .sentence(let sentence, _): sentences.append(sentence.range)
            case .word(_, let range):
                #expect(sentences.last.map { $0.contains(range.lowerBound) } == true)
                words.append(String(text.characters[range]))
            default: break
            }
        }
        #expect(sentences == text.sentences)
        #expect(words == ["One", "two", "three.", "Four", "five.", "Six", "seven", "eight", "nine.", "Ten."])
        if case .finished = heard.last {} else { Issue.record("ended with \(String(describing: heard.last))") }
        // Speed 4 on a synthesiser that reaches 2: it synthesises at 2, the sink plays twice as fast.
        #expect(synthesizer.calls.withLock { $0 }.allSatisfy { $0 == 2 })
    }

    @Test func noteMarkersAreNotSaidButWordsKeepTheirChapterPositions() {
        let text = SpeakableText(href: "c.xhtml", text: "Alpha beta. Gamma delta.", language: "en")
        let spoken = text.spoken(sentence: 1)
        #expect(spoken.text == "Gamma delta.")
        #expect(spoken.chapterRange(ofScalars: 6, length: 5) == 18..<23)
    }

    /// When synthesis is slower than speech, the output waits between sentences, and says so
    /// (the figure `make bench` reports as the gap).
    @Test func aSlowSynthesiserLeavesGapsThatAreMeasured() async throws {
        let text = SpeakableText(href: "c.xhtml", text: "One two three. Four five six. Seven eight nine.", language: "en")
        // 60 ms of audio per sentence, 200 ms to make each.
        let pipeline = SpeechPipeline(synthesizer: ScriptedSynthesizer(delay: 200_000), sink: NullPCMSink(sampleRate: 1_000), speed: 1)
        pipeline.start(source(text))
        let waits = try await events(of: pipeline).compactMap { event -> Double? in
            if case .sentence(_, let boundary?) = event { return boundary.wait }
            return nil
        }
        #expect(waits.count == 2)
        #expect(waits.allSatisfy { $0 > 0.05 }, "\(waits)")
    }
}

/// The pipeline pushes what is heard (``SpeechPipeline/events``): nobody polls it.
@Suite struct SpeechPipelinePushTests {
    @Test func eventsArePushedInOrderToTheEnd() async throws {
        let text = SpeakableText(href: "c.xhtml", text: "One two three. Four five.", language: "en")
        let pipeline = SpeechPipeline(synthesizer: ScriptedSynthesizer(), sink: NullPCMSink(sampleRate: 1_000), speed: 4)
        let stream = pipeline.events
        pipeline.start(source(text))
        var said: [String] = []
        let characters = Array("One two three. Four five.")
        for await event in stream {
            switch event {
            case .sentence(let sentence, _): said.append("[\(sentence.index)]")
            case .word(_, let range): said.append(String(characters[range]))
            case .finished: said.append("end")
            case .failed(let error): Issue.record("failed: \(error.userMessage)")
            }
        }
        #expect(said == ["[0]", "One", "two", "three.", "[1]", "Four", "five.", "end"])
    }
}
