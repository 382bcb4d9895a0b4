import Dispatch
import Synchronization

/// Says sentences through speech-dispatcher: each sentence is sent as SSML with a
/// `<mark name="wN"/>` before each word, and the server's notifications become the events the
/// espeak-ng pipeline gives (its begin: the sentence is heard; an index mark: the word). The
/// next sentence is sent while the current one is said, so that the server has it queued
/// when this one ends (no gap of a round trip between them).
public final class SpeechdSpeaker: SentenceSpeaker {
    public let name = "speech-dispatcher"
    public let outputName = "speech-dispatcher"
    /// Sentences sent ahead of the one heard.
    static let ahead = 2

    private struct Sent: Sendable {
        var sentence: SpokenSentence
        var words: [Range<Int>]
    }

    private struct State: Sendable {
        var sent: [Int: Sent] = [:]
        /// Messages sent whose end was not yet heard.
        var outstanding = 0
        var stopped = false
        /// Events not yet taken (``poll()``), when nobody listens to ``events``.
        var buffered: [SpeechEvent] = []
        var continuation: AsyncStream<SpeechEvent>.Continuation?
        var finishedSaid = false
        /// When the last sentence ended, to tell the wait before the next.
        var lastEnd: ContinuousClock.Instant?
        var heardAny = false
        /// Notices of messages whose id `say` has not returned yet.
        var early: [Int: [SpeechdConnection.Notice]] = [:]
    }

    private let state = Mutex(State())
    /// Signalled at each end: the sender may send another sentence.
    private let ended = DispatchSemaphore(value: 0)
    private let worker = DispatchQueue(label: "lectern.speech.speechd")
    private let rate: Int
    private let connection: SpeechdConnection
    /// The connection's notices go to `heard` through it (set once `self` exists).
    private let relay = Relay()

    private final class Relay: Sendable {
        let target = Mutex<(@Sendable (Int, SpeechdConnection.Notice) -> Void)?>(nil)
        func forward(_ message: Int, _ notice: SpeechdConnection.Notice) { target.withLock { $0 }?(message, notice) }
    }

    /// Connects to the server (`SPEECHD_ADDRESS` of `environment`, else the user's); throws
    /// when libspeechd is missing or no server answers. Blocking.
    public init(environment: [String: String], speed: Double) throws(SpeechError) {
        rate = Self.rate(forSpeed: speed)
        let relay = relay
        connection = try SpeechdConnection(environment: environment) { relay.forward($0, $1) }
        relay.target.withLock { $0 = { [weak self] message, notice in self?.heard(notice, of: message) } }
    }

    deinit { connection.close() }

    /// speech-dispatcher's rate (−100…100, 0 the voice's own) for a speed: 0.5 is −100, 3 is 100.
    static func rate(forSpeed speed: Double) -> Int {
        let value = speed >= 1 ? (speed - 1) * 50 : (speed - 1) * 200
        return Int(min(100, max(-100, value.rounded())))
    }

    public func start(_ source: @escaping SpeechPipeline.Source) {
        worker.async { [self] in send(source) }
    }

    public func stop() {
        state.withLock { state in
            state.stopped = true
            state.continuation?.finish()
            state.continuation = nil
        }
        ended.signal()
        connection.close()
    }

    public func setPaused(_ paused: Bool) { connection.setPaused(paused) }

    public func poll() -> [SpeechEvent] {
        state.withLock { state in
            defer { state.buffered = [] }
            return state.buffered
        }
    }

    public var events: AsyncStream<SpeechEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SpeechEvent.self)
        state.withLock { state in
            for event in state.buffered { continuation.yield(event) }
            state.buffered = []
            if state.stopped || state.finishedSaid { continuation.finish() } else { state.continuation = continuation }
        }
        return stream
    }

    /// The sender, on its Dispatch thread: keeps ``ahead`` sentences at the server.
    private func send(_ source: SpeechPipeline.Source) {
        var language: String?
        while true {
            while state.withLock({ !$0.stopped && $0.outstanding >= Self.ahead }) { ended.wait() }
            do throws(SpeechError) {
                guard !state.withLock({ $0.stopped }), let sentence = try source() else { break }
                guard sentence.isSpeakable else {
                    // Nothing to say: heard once everything before it is.
                    while state.withLock({ !$0.stopped && $0.outstanding > 0 }) { ended.wait() }
                    state.withLock { Self.emit(.sentence(sentence, boundary: nil), in: &$0) }
                    continue
                }
                let (ssml, words) = Self.ssml(sentence.text) { sentence.chapterRange(ofScalars: $0, length: $1) }
                // Asked for at each change only: the server keeps it for the messages after.
                let wanted = sentence.language.map(Self.serverLanguage)
                state.withLock { $0.outstanding += 1 }
                guard let id = connection.say(ssml: ssml, language: wanted == language ? nil : wanted, rate: rate) else {
                    throw .engineFailed("speech-dispatcher refused the text (its server stopped?)")
                }
                language = wanted
                let ends = state.withLock { state -> Int in
                    state.sent[id] = Sent(sentence: sentence, words: words)
                    // What the server said of it before `say` returned its id.
                    let early = state.early.removeValue(forKey: id) ?? []
                    return early.reduce(0) { $0 + (Self.handle($1, of: id, in: &state) ? 1 : 0) }
                }
                for _ in 0..<ends { ended.signal() }
            } catch {
                state.withLock { Self.emit(.failed(error), in: &$0) }
                return
            }
        }
        while state.withLock({ !$0.stopped && $0.outstanding > 0 }) { ended.wait() }
        state.withLock { Self.emit(.finished, in: &$0) }
    }

    /// A notice of the server, on libspeechd's thread (which also reads the replies to `say`:
    /// it must not wait for the sender).
    private func heard(_ notice: SpeechdConnection.Notice, of message: Int) {
        let ended = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            guard state.sent[message] != nil else {
                state.early[message, default: []].append(notice)
                return false
            }
            return Self.handle(notice, of: message, in: &state)
        }
        if ended { self.ended.signal() }
    }

    /// Turns a notice into events; true when the message ended.
    private static func handle(_ notice: SpeechdConnection.Notice, of message: Int, in state: inout State) -> Bool {
        guard let sent = state.sent[message] else { return false }
        switch notice {
        case .begin:
            var boundary: SentenceBoundary?
            if state.heardAny {
                let wait = state.lastEnd.map { ContinuousClock.now - $0 } ?? .zero
                boundary = SentenceBoundary(pause: 0, wait: Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18)
            }
            state.heardAny = true
            emit(.sentence(sent.sentence, boundary: boundary), in: &state)
            return false
        case .mark(let name):
            if name.hasPrefix("w"), let index = Int(name.dropFirst()), sent.words.indices.contains(index) {
                emit(.word(href: sent.sentence.href, range: sent.words[index]), in: &state)
            }
            return false
        case .end, .cancel:
            state.sent[message] = nil
            state.outstanding -= 1
            state.lastEnd = .now
            return true
        }
    }

    private static func emit(_ event: SpeechEvent, in state: inout State) {
        guard !state.stopped, !state.finishedSaid else { return }
        switch event {
        case .finished, .failed: state.finishedSaid = true
        default: break
        }
        if let continuation = state.continuation {
            continuation.yield(event)
            if state.finishedSaid { continuation.finish() }
        } else {
            state.buffered.append(event)
        }
    }

    /// The language as the server names it: ISO 639 codes, optionally with a region (`en`, `pt-br`).
    static func serverLanguage(_ tag: String) -> String {
        tag.lowercased().split(separator: "-").prefix(2).joined(separator: "-")
    }
}
