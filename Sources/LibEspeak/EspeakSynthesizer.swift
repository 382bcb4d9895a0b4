import CLecternEspeak
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Audio synthesised by espeak-ng for one text, with where each word starts in it.
public struct EspeakAudio: Sendable {
    /// Mono signed 16-bit samples.
    public var samples: [Int16]
    /// Samples per second.
    public var sampleRate: Int
    /// The words in order: the code-point range of each in the text given, and the sample
    /// where it starts.
    public var words: [Word]

    public struct Word: Sendable, Equatable {
        /// Offset of the first code point (0-based) in the text synthesised.
        public var textOffset: Int
        /// Length in code points.
        public var length: Int
        /// The sample where the word starts.
        public var sample: Int
    }
}

/// libespeak-ng, loaded and started on first use, one voice at a time.
///
/// espeak-ng is a process-wide singleton that is not thread-safe: every call goes through
/// one lock, and ``synthesize(_:)`` holds it while it synthesises (synchronous mode: the
/// audio and its events come back on the calling thread).
public final class EspeakSynthesizer: Sendable {
    private struct State: @unchecked Sendable {
        var started: Result<Int, EspeakError>?
        var voice: String?
        var rate: Int?
    }
    private static let state = Mutex(State())

    /// The sample rate of the engine.
    public let sampleRate: Int

    private init(sampleRate: Int) {
        self.sampleRate = sampleRate
    }

    /// The synthesiser, loading libespeak-ng (`library`: a file name or path, nil for the
    /// system's) and its data (`dataPath`: the folder holding `espeak-ng-data`, or that folder
    /// itself; nil for the default) on the first call. Later calls return the same engine
    /// whatever they ask: espeak-ng starts once per process.
    public static func shared(library: String? = nil, dataPath: String? = nil) throws(EspeakError) -> EspeakSynthesizer {
        let result: Result<Int, EspeakError> = state.withLock { state in
            if let started = state.started { return started }
            let started = start(library: library, dataPath: dataPath)
            state.started = started
            return started
        }
        return EspeakSynthesizer(sampleRate: try result.get())
    }

    private static func start(library: String?, dataPath: String?) -> Result<Int, EspeakError> {
        guard lectern_espeak_load(library) != 0 else { return .failure(.libraryMissing(library: library)) }
        // espeak-ng gives no reason when its data is missing: the phoneme table is looked for here.
        let folder = dataPath.map { path in
            fileExists("\(path)/espeak-ng-data/phontab") ? "\(path)/espeak-ng-data" : path
        }
        if let folder, !fileExists("\(folder)/phontab") { return .failure(.dataMissing(path: dataPath)) }
        let rate = lectern_espeak_initialize(dataPath)
        guard rate > 0 else { return .failure(dataPath == nil ? .dataMissing(path: nil) : .initializationFailed) }
        lectern_espeak_set_synth_callback(espeakCallback)
        return .success(Int(rate))
    }

    private static func fileExists(_ path: String) -> Bool {
        access(path, R_OK) == 0
    }

    /// The version of the loaded library (e.g. `1.51`).
    public var version: String {
        Self.state.withLock { _ in lectern_espeak_version().map { String(cString: $0) } ?? "" }
    }

    /// Chooses the voice for `language` (a BCP 47 tag: `fr`, `en-GB`, `pt-BR`): espeak-ng's
    /// best match, trying the tag then its primary language. Returns the voice's name.
    @discardableResult
    public func setVoice(language: String) throws(EspeakError) -> String {
        let tag = language.lowercased().replacingUnderscores
        return try Self.state.withLock { state throws(EspeakError) -> String in
            for candidate in [tag, String(tag.prefix { $0 != "-" })] where !candidate.isEmpty {
                if state.voice == "lang:" + candidate, let name = Self.currentVoiceName { return name }
                if lectern_espeak_set_voice_by_language(candidate) == 0, let name = Self.currentVoiceName {
                    state.voice = "lang:" + candidate
                    return name
                }
            }
            throw .voiceNotFound(language)
        }
    }

    /// Chooses a voice by its espeak-ng name or file (`en-us`, `fr`, `gmw/en-GB-x-rp`…).
    public func setVoice(name: String) throws(EspeakError) {
        try Self.state.withLock { state throws(EspeakError) in
            guard state.voice != "name:" + name else { return }
            guard lectern_espeak_set_voice_by_name(name) == 0 else { throw .voiceNotFound(name) }
            state.voice = "name:" + name
            // A voice sets its own rate: the one asked for is set again.
            state.rate = nil
        }
    }

    private static var currentVoiceName: String? {
        lectern_espeak_current_voice_name().map { String(cString: $0) }
    }

    /// The speaking rate in words per minute (espeak-ng takes 80 to 450; clamped).
    public func setRate(wordsPerMinute: Int) {
        let rate = min(450, max(80, wordsPerMinute))
        Self.state.withLock { state in
            guard state.rate != rate else { return }
            _ = lectern_espeak_set_parameter(espeakRATE, Int32(rate))
            state.rate = rate
        }
    }

    /// The names of the voices installed (their languages first), sorted.
    public func voices() -> [String] {
        Self.state.withLock { _ in
            guard let list = lectern_espeak_list_voices() else { return [] }
            var names: [String] = []
            var index = 0
            while let voice = list[index] {
                if let identifier = voice.pointee.identifier { names.append(String(cString: identifier)) }
                index += 1
            }
            return names.sorted()
        }
    }

    /// Synthesises `text` with the current voice and rate.
    public func synthesize(_ text: String) throws(EspeakError) -> EspeakAudio {
        let sink = SynthesisSink(sampleRate: sampleRate)
        // wchar_t is UTF-32 on Linux: word events then count code points.
        var wide = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
        wide.append(0)
        let code = Self.state.withLock { _ in
            // The callback finds the sink here: the last block's event list (the end of the
            // text) carries no user data, and its samples (the final pause) would be lost.
            currentSynthesis.withLock { $0 = sink }
            defer { currentSynthesis.withLock { $0 = nil } }
            return wide.withUnsafeBufferPointer { buffer in
                lectern_espeak_synth_wide(buffer.baseAddress, buffer.count * MemoryLayout<wchar_t>.stride, nil)
            }
        }
        guard code == 0 else { throw .synthesisFailed(code: code) }
        return EspeakAudio(samples: sink.samples, sampleRate: sampleRate, words: sink.words)
    }
}

/// The synthesis under way (set while the engine's lock is held).
private let currentSynthesis = Mutex<SynthesisSink?>(nil)

/// Collects one synthesis (only touched by the thread that holds the engine's lock).
private final class SynthesisSink: @unchecked Sendable {
    let sampleRate: Int
    var samples: [Int16] = []
    var words: [EspeakAudio.Word] = []
    init(sampleRate: Int) { self.sampleRate = sampleRate }
}

/// espeak-ng's callback: a block of samples and the events in it, the list ending with
/// `espeakEVENT_LIST_TERMINATED` (a C function: it cannot capture; the sink is the user data).
private let espeakCallback: @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?) -> Int32 = {
    wav, count, events in
    guard let sink = currentSynthesis.withLock({ $0 }) else { return 0 }
    var event = events
    while let current = event, current.pointee.type != espeakEVENT_LIST_TERMINATED {
        if current.pointee.type == espeakEVENT_WORD {
            // text_position counts from 1; audio_position is in milliseconds.
            let sample = Int(current.pointee.audio_position) * sink.sampleRate / 1000
            sink.words.append(EspeakAudio.Word(textOffset: max(0, Int(current.pointee.text_position) - 1),
                                               length: Int(current.pointee.length), sample: sample))
        }
        event = current + 1
    }
    if let wav, count > 0 {
        sink.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count)))
    }
    return 0
}

extension String {
    fileprivate var replacingUnderscores: String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}
