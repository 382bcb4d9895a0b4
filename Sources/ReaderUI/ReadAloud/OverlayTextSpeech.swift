import FoundationEssentials
import ReadAloud
import Shared
import Speech
import Streamer
import Synchronization

/// Speaks the text-only phrases of a narration (a SMIL `par` with text and no audio) with
/// espeak-ng, off the main actor: the synthesiser is loaded on the first such phrase, the
/// phrase's text read from its chapter (through the publication), then said through a
/// ``SpeechPipeline``. Without espeak-ng such phrases are passed over, as before.
final class OverlayTextSpeech: Sendable {
    private struct State: Sendable {
        var synthesizer: EspeakSpeechSynthesizer?
        var unavailable = false
        var pipeline: SpeechPipeline?
        /// The phrase being said (its index in the timeline).
        var phrase: Int?
        /// Counts the phrases started, so that a finished one that was replaced says nothing.
        var generation = 0
        var paused = false
        var stopped = false
    }

    private let publication: Publication
    private let book: MediaOverlayBook
    private let environment: [String: String]
    private let nullOutput: Bool
    private let state = Mutex(State())

    init(publication: Publication, book: MediaOverlayBook, environment: [String: String], nullOutput: Bool) {
        self.publication = publication
        self.book = book
        self.environment = environment
        self.nullOutput = nullOutput
    }

    /// Whether a speech engine may say the phrases (false once loading it failed).
    var isAvailable: Bool { state.withLock { !$0.unavailable && !$0.stopped } }

    /// Whether phrase `index` is the one being said (paused, for instance).
    func isSaying(_ index: Int) -> Bool { state.withLock { $0.phrase == index } }

    /// Says `phrase` (number `index`) at `speed`, then calls `done` on the main actor; a phrase
    /// said meanwhile replaces it, and `done` is not called then.
    func say(_ phrase: MediaOverlayPhrase, index: Int, speed: Double, done: @escaping @MainActor @Sendable () -> Void) {
        let generation = state.withLock { state -> Int in
            state.pipeline?.stop()
            state.pipeline = nil
            state.generation += 1
            state.phrase = index
            return state.generation
        }
        let publication = publication, book = book, environment = environment, null = nullOutput
        Task.detached { [self] in
            let prepared = try? await Blocking.attempt { () throws(SpeechError) -> (SpeechPipeline, SpeakableText)? in
                let synthesizer = try self.synthesizer(environment: environment)
                var texts = MediaOverlayTexts(publication: publication, book: book)
                guard let text = texts.text(of: phrase), text.contains(where: { $0.isLetter || $0.isNumber }) else { return nil }
                let spoken = SpeakableText(href: phrase.textHref, text: text, language: publication.metadata.languages.first)
                let sink = try SpeechOutput.sink(null: null, sampleRate: synthesizer.sampleRate)
                return (SpeechPipeline(synthesizer: synthesizer, sink: sink, speed: speed), spoken)
            }
            guard let (pipeline, text) = prepared ?? nil else { return await self.finish(generation, done: done) }
            let started = state.withLock { state -> Bool in
                guard state.generation == generation, !state.stopped else { return false }
                state.pipeline = pipeline
                pipeline.setPaused(state.paused)
                return true
            }
            guard started else { return pipeline.stop() }
            let next = Mutex(0)
            let heard = pipeline.events
            pipeline.start { () -> SpokenSentence? in
                next.withLock { number in
                    guard number < text.sentences.count else { return nil }
                    defer { number += 1 }
                    return text.spoken(sentence: number)
                }
            }
            // Pushed by the pipeline; the stream ends with the phrase, or when it is stopped.
            for await _ in heard where !self.isCurrent(generation) { break }
            await self.finish(generation, done: done)
        }
    }

    func setPaused(_ paused: Bool) {
        let pipeline = state.withLock { state in
            state.paused = paused
            return state.pipeline
        }
        pipeline?.setPaused(paused)
    }

    /// Stops saying the phrase being said (the narration moved on).
    func cancel() {
        let pipeline = state.withLock { state in
            state.generation += 1
            state.phrase = nil
            defer { state.pipeline = nil }
            return state.pipeline
        }
        pipeline?.stop()
    }

    func stop() {
        state.withLock { $0.stopped = true }
        cancel()
    }

    private func isCurrent(_ generation: Int) -> Bool {
        state.withLock { $0.generation == generation && !$0.stopped }
    }

    private func finish(_ generation: Int, done: @escaping @MainActor @Sendable () -> Void) async {
        let current = state.withLock { state -> Bool in
            guard state.generation == generation, !state.stopped else { return false }
            state.pipeline = nil
            state.phrase = nil
            return true
        }
        if current { await done() }
    }

    /// The synthesiser, loaded once; a failure is remembered (the phrases are passed over).
    private func synthesizer(environment: [String: String]) throws(SpeechError) -> EspeakSpeechSynthesizer {
        if let loaded = state.withLock({ $0.synthesizer }) { return loaded }
        do {
            let loaded = try EspeakSpeechSynthesizer(environment: environment)
            state.withLock { $0.synthesizer = loaded }
            return loaded
        } catch {
            state.withLock { $0.unavailable = true }
            throw error
        }
    }
}
