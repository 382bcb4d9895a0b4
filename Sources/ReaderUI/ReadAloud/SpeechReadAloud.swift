import AudioPlayback
import Shared
import Speech
import Synchronization
import TextLayout

/// Reads a book's text aloud with text-to-speech, off the main actor: the engine (speech-dispatcher
/// when its server answers, else espeak-ng; `LECTERN_SPEECH_ENGINE` forces one) is loaded and
/// each chapter converted on a Dispatch thread (``Blocking``), the speaker works on its own
/// threads and pushes what is heard, which is passed on as ``ReadAloudEvent``s for the main
/// actor to draw.
///
/// A change of speed starts the pipeline again at the sentence being said (the synthesiser's
/// rate is chosen when a pipeline starts).
final class SpeechReadAloud: Sendable {
    let events: AsyncStream<ReadAloudEvent>
    let name: String
    let speedRange: ClosedRange<Double> = 0.5...3

    private struct State: Sendable {
        var pipeline: (any SentenceSpeaker)?
        /// Counts the pipelines started: events of a replaced one are dropped.
        var generation = 0
        var paused = false
        var speed: Double
        /// Where the sentence being said starts, to start again there.
        var place: Locator
        var sentences = 0
        /// Sentences to move on from `place` (the previous/next keys), until a sentence is heard:
        /// a second key before then counts from the same place.
        var step = 0
        var stopped = false
    }

    private let continuation: AsyncStream<ReadAloudEvent>.Continuation
    private let publication: Publication
    /// The engine the first speaker was made with: the same is asked for at each restart.
    private let choice: SpeechEngineChoice
    private let environment: [String: String]
    private let nullOutput: Bool
    private let state: Mutex<State>

    private init(publication: Publication, first: any SentenceSpeaker, nullOutput: Bool, place: Locator, speed: Double,
                 environment: [String: String]) {
        (events, continuation) = AsyncStream.makeStream(of: ReadAloudEvent.self)
        self.publication = publication
        choice = first is SpeechdSpeaker ? .speechDispatcher : .espeak
        self.environment = environment
        self.nullOutput = nullOutput
        name = first.name
        state = Mutex(State(speed: speed, place: place))
    }

    /// Loads the speech engine and starts reading at the sentence holding `locator`.
    /// - Parameter environment: `LECTERN_AUDIO_OUTPUT=null` plays to no device;
    ///   `LECTERN_SPEECH_ENGINE` chooses the engine, `SPEECHD_ADDRESS` speech-dispatcher's
    ///   server; the espeak-ng variables its library and data.
    static func start(publication: Publication, at locator: Locator, speed: Double,
                      environment: [String: String]) async throws(ReadAloudError) -> SpeechReadAloud {
        let null = AudioOutput.resolved(.system, environment: environment) == .null
        let first: any SentenceSpeaker
        do {
            first = try await Blocking.attempt { () throws(SpeechError) in
                try SentenceSpeakers.make(.from(environment: environment), nullOutput: null, speed: speed, environment: environment)
            }
        } catch {
            throw ReadAloudError(error.userMessage)
        }
        let engine = SpeechReadAloud(publication: publication, first: first, nullOutput: null, place: locator, speed: speed,
                                     environment: environment)
        try await engine.launch(with: first)
        return engine
    }

    func setPaused(_ paused: Bool) {
        guard choice == .espeak else { return restartPaused(paused) }
        let pipeline = state.withLock { state in
            state.paused = paused
            return state.pipeline
        }
        pipeline?.setPaused(paused)
    }

    /// speech-dispatcher pauses only messages of priority `text`, and sentences are sent as
    /// `message` (queued): a pause stops it, and resuming starts again at the sentence said.
    private func restartPaused(_ paused: Bool) {
        let old = state.withLock { state -> (any SentenceSpeaker)? in
            guard state.paused != paused, !state.stopped else { return nil }
            state.paused = paused
            guard paused else { return nil }
            state.generation += 1
            defer { state.pipeline = nil }
            return state.pipeline
        }
        old?.stop()
        guard !paused else { return }
        Task { [self] in
            do throws(ReadAloudError) { try await launch() } catch { report(.failed(error.userMessage)) }
        }
    }

    func setSpeed(_ speed: Double) {
        let changed = state.withLock { state -> Bool in
            let value = min(max(speed, speedRange.lowerBound), speedRange.upperBound)
            guard value != state.speed, !state.stopped else { return false }
            state.speed = value
            return true
        }
        guard changed else { return }
        Task { [self] in
            do throws(ReadAloudError) { try await launch() } catch { report(.failed(error.userMessage)) }
        }
    }

    func step(by delta: Int) {
        let go = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.step += delta
            // What the pipeline speaking says from now on is not where the key leads.
            state.generation += 1
            return true
        }
        guard go else { return }
        Task { [self] in
            do throws(ReadAloudError) { try await launch() } catch { report(.failed(error.userMessage)) }
        }
    }

    /// Sentences know no tables or lists to leave.
    func escape() -> Bool { false }

    func go(toParagraph offset: Int, forward: Bool, href: String, document: TextDocument) -> Bool {
        var target = offset
        if !forward {
            guard offset > 0, let block = document.blockIndex(containing: offset - 1) else { return false }
            target = document.blocks[block].offset
        }
        guard target < document.length else { return false }
        var locator = document.locator(at: target)
        locator.href = href
        let go = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.place = locator
            state.step = 0
            // What the pipeline speaking says from now on is not where the key leads.
            state.generation += 1
            return true
        }
        guard go else { return false }
        Task { [self] in
            do throws(ReadAloudError) { try await launch() } catch { report(.failed(error.userMessage)) }
        }
        return true
    }

    func stop() {
        let pipeline = state.withLock { state in
            state.stopped = true
            state.generation += 1
            defer { state.pipeline = nil }
            return state.pipeline
        }
        pipeline?.stop()
        continuation.finish()
    }

    /// Starts a speaker (`first`, else a new one of the same engine) at the place noted (the
    /// chapter converted and the engine opened off the main actor), replacing the one speaking.
    private func launch(with first: (any SentenceSpeaker)? = nil) async throws(ReadAloudError) {
        let (place, step, speed, old) = state.withLock { state in
            state.generation += 1
            defer { state.pipeline = nil }
            return (state.place, state.step, state.speed, state.pipeline)
        }
        old?.stop()
        let publication = publication, null = nullOutput, choice = choice, environment = environment
        let prepared: (PublicationSentences, any SentenceSpeaker)
        do {
            prepared = try await Blocking.attempt { () throws(SpeechError) -> (PublicationSentences, any SentenceSpeaker) in
                let sentences = PublicationSentences(publication: publication)
                guard try sentences.start(at: place) else { throw .engineFailed("this place is not in the book's reading order") }
                if step != 0 { _ = try sentences.move(by: step) }
                if let first { return (sentences, first) }
                return (sentences, try SentenceSpeakers.make(choice, nullOutput: null, speed: speed, environment: environment))
            }
        } catch {
            throw ReadAloudError(error.userMessage)
        }
        let (sentences, pipeline) = prepared
        let generation: Int? = state.withLock { state in
            // Paused meanwhile, speech-dispatcher starts again when resumed (``restartPaused(_:)``).
            guard !state.stopped, !(state.paused && choice != .espeak) else { return nil }
            state.generation += 1
            state.pipeline = pipeline
            pipeline.setPaused(state.paused)
            return state.generation
        }
        guard let generation else { return pipeline.stop() }
        let heard = pipeline.events
        pipeline.start { () throws(SpeechError) -> SpokenSentence? in try sentences.next() }
        Task.detached { [weak self] in
            for await event in heard {
                guard let self, self.isCurrent(generation) else { break }
                self.forward(event, generation: generation)
            }
        }
    }

    private func isCurrent(_ generation: Int) -> Bool {
        state.withLock { !$0.stopped && $0.generation == generation }
    }

    private func forward(_ event: SpeechEvent, generation: Int) {
        switch event {
        case .sentence(let sentence, _):
            let number: Int? = state.withLock { state in
                guard state.generation == generation else { return nil }
                if let position = sentence.position { state.place = position }
                state.step = 0
                state.sentences += 1
                return state.sentences
            }
            guard let number else { return }
            report(.span(ReadAloudSpan(href: sentence.href, place: .range(sentence.range), number: number)))
        case .word(let href, let range):
            report(.word(href: href, range: range))
        case .finished:
            report(.finished)
        case .failed(let error):
            report(.failed(error.userMessage))
        }
    }

    private func report(_ event: ReadAloudEvent) {
        continuation.yield(event)
    }
}

// Conformed here, not on the class: a conformance there would put the whole class on the main actor.
extension SpeechReadAloud: ReadAloudEngine {}
