import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Speaks a stream of sentences: a Dispatch thread synthesises the next sentence while the
/// current one plays (so that sentences follow without a gap), appends its audio to the sink
/// and notes where each sentence and word starts; ``poll()`` turns the sink's position into
/// the events now heard, in order.
public final class SpeechPipeline: Sendable {
    /// The sentences to say, asked for one at a time on the synthesis thread (nil: the end).
    public typealias Source = @Sendable () throws(SpeechError) -> SpokenSentence?

    private struct Queued: Sendable {
        var sentence: SpokenSentence
        var startSample: Int
        var endSample: Int
        /// Samples of silence at its start and end (the synthesiser's own pauses).
        var leadingSilence: Int
        var trailingSilence: Int
        var words: [(range: Range<Int>, sample: Int)]
        /// The sink's total wait for audio once this sentence's samples arrived: the wait before
        /// it is this minus the previous sentence's (counted here, not when the events are read,
        /// which may be late).
        var starvedAtAppend: Double
    }

    private struct State: Sendable {
        var queue: [Queued] = []
        var queuedSamples = 0
        var producing = true
        var failure: SpeechError?
        var stopped = false
        /// The next sentence (index in `queue`) and word to announce.
        var nextSentence = 0
        var nextWord = 0
        var finishedSaid = false
    }

    private let synthesizer: any SpeechSynthesizer
    private let sink: any PCMSink
    private let speed: Double
    /// How much audio to have synthesised ahead of what is heard.
    private let lookahead: Double
    private let state = Mutex(State())
    private let worker = DispatchQueue(label: "lectern.speech.synthesis")
    /// Signalled when audio is queued or the pipeline stops: ``events``' thread wakes then.
    let wake = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - speed: 1 is the voice's own rate; what the synthesiser cannot reach is played faster.
    ///   - lookahead: seconds of audio kept synthesised ahead (at least the next sentence).
    public init(synthesizer: any SpeechSynthesizer, sink: any PCMSink, speed: Double, lookahead: Double = 2) {
        self.synthesizer = synthesizer
        self.sink = sink
        self.speed = speed
        self.lookahead = lookahead
        let synthesisSpeed = min(speed, synthesizer.maximumSpeed)
        sink.setRate(speed / synthesisSpeed)
    }

    public var name: String { synthesizer.name }
    public var outputName: String { sink.outputName }
    /// Samples per second of the audio it plays.
    public var sampleRate: Int { sink.sampleRate }

    /// Starts synthesising from `source`.
    public func start(_ source: @escaping Source) {
        worker.async { [self] in produce(source) }
    }

    /// Stops synthesising and playing.
    public func stop() {
        state.withLock { $0.stopped = true }
        wake.signal()
        sink.close()
    }

    public func setPaused(_ paused: Bool) { sink.setPaused(paused) }

    private func produce(_ source: Source) {
        let synthesisSpeed = min(speed, synthesizer.maximumSpeed)
        while true {
            // Wait (on this Dispatch thread) until the audio ahead runs short.
            while true {
                let (stopped, ahead, unheard) = state.withLock { state in
                    (state.stopped, state.queuedSamples, state.queue.count - state.nextSentence)
                }
                if stopped { return }
                let heardAhead = Double(ahead - sink.playedSamples) / Double(sink.sampleRate)
                if unheard < 1 || heardAhead < lookahead { break }
                usleep(5_000)
            }
            do throws(SpeechError) {
                guard let sentence = try source() else { break }
                let speech: SynthesizedSpeech = sentence.isSpeakable
                    ? try synthesizer.synthesize(sentence.text, language: sentence.language, speed: synthesisSpeed)
                    : SynthesizedSpeech(samples: [], words: [])
                enqueue(sentence, speech)
            } catch {
                state.withLock { $0.failure = error }
                break
            }
        }
        state.withLock { $0.producing = false }
        wake.signal()
    }

    private func enqueue(_ sentence: SpokenSentence, _ speech: SynthesizedSpeech) {
        let threshold: Int16 = 300
        let leading = speech.samples.firstIndex { abs(Int32($0)) > Int32(threshold) } ?? speech.samples.count
        let trailing = speech.samples.count - 1 - (speech.samples.lastIndex { abs(Int32($0)) > Int32(threshold) } ?? -1)
        // Appended under the lock: the queue's samples and the sink's stay in step.
        state.withLock { state in
            let start = state.queuedSamples
            // espeak-ng says a number or an abbreviation as several words at one text position
            // (`3.14`: three, point, one, four): the highlight moves on the first only.
            var words: [(range: Range<Int>, sample: Int)] = []
            for word in speech.words {
                guard let range = sentence.chapterRange(ofScalars: word.scalarOffset, length: word.length),
                      range.lowerBound > (words.last?.range.lowerBound ?? Int.min) else { continue }
                words.append((range, start + word.sample))
            }
            state.queuedSamples += speech.samples.count
            sink.append(speech.samples)
            state.queue.append(Queued(sentence: sentence, startSample: start, endSample: start + speech.samples.count,
                                      leadingSilence: leading, trailingSilence: trailing, words: words,
                                      starvedAtAppend: sink.starvedSeconds))
        }
        wake.signal()
    }

    /// The events heard since the last call, in order.
    public func poll() -> [SpeechEvent] {
        let played = sink.playedSamples
        let rate = Double(sink.sampleRate) * sink.rateForGaps(speed: speed, synthesizer: synthesizer)
        return state.withLock { state in
            var events: [SpeechEvent] = []
            while state.nextSentence <= state.queue.count {
                if state.nextSentence > 0 {
                    // The words of the sentence being heard.
                    let current = state.queue[state.nextSentence - 1]
                    while state.nextWord < current.words.count, current.words[state.nextWord].sample <= played {
                        events.append(.word(href: current.sentence.href, range: current.words[state.nextWord].range))
                        state.nextWord += 1
                    }
                }
                guard state.nextSentence < state.queue.count else { break }
                let next = state.queue[state.nextSentence]
                // Heard when its audio starts; one with nothing to say, once all before it is heard.
                guard next.startSample < played || (next.startSample == played && played >= state.queuedSamples) else { break }
                var boundary: SentenceBoundary?
                if state.nextSentence > 0 {
                    let previous = state.queue[state.nextSentence - 1]
                    boundary = SentenceBoundary(pause: Double(previous.trailingSilence + next.leadingSilence) / rate,
                                                wait: max(0, next.starvedAtAppend - previous.starvedAtAppend))
                }
                events.append(.sentence(next.sentence, boundary: boundary))
                state.nextSentence += 1
                state.nextWord = 0
            }
            if let failure = state.failure, state.nextSentence == state.queue.count, !state.finishedSaid {
                state.finishedSaid = true
                events.append(.failed(failure))
            } else if !state.producing, state.failure == nil, state.nextSentence == state.queue.count,
                      played >= state.queuedSamples, !state.finishedSaid {
                state.finishedSaid = true
                events.append(.finished)
            }
            return events
        }
    }
}

extension SpeechPipeline {
    /// Seconds until the next event is heard (nil: none is known yet, or the pipeline stopped).
    func secondsToNextEvent() -> Double? {
        let played = sink.playedSamples
        let rate = Double(sink.sampleRate) * sink.rateForGaps(speed: speed, synthesizer: synthesizer)
        let next: Int? = state.withLock { state in
            guard !state.stopped else { return nil }
            if state.nextSentence > 0 {
                let current = state.queue[state.nextSentence - 1]
                if state.nextWord < current.words.count { return current.words[state.nextWord].sample }
            }
            if state.nextSentence < state.queue.count { return state.queue[state.nextSentence].startSample + 1 }
            // The end of what is queued (finished then); nil when it is played: the next
            // sentence's audio is awaited, and its queueing wakes the caller.
            return state.queuedSamples > played ? state.queuedSamples : nil
        }
        return next.map { max(0, Double($0 - played) / rate) }
    }

    var isStopped: Bool { state.withLock { $0.stopped } }
}

extension PCMSink {
    /// How much faster than synthesised the sink plays (for gaps in seconds heard).
    fileprivate func rateForGaps(speed: Double, synthesizer: any SpeechSynthesizer) -> Double {
        speed / min(speed, synthesizer.maximumSpeed)
    }
}
