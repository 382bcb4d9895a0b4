import AudioPlayback
import FoundationEssentials
import Shared
import Streamer

/// Plays a book's media overlays through an ``AudioEngine`` (libmpv unless one is given), on
/// the main actor, and says which phrase is being read.
///
/// Clips that follow each other in one file play on without a seek; a clip ending elsewhere
/// moves the engine (a seek in the same file, a load of another). A clip without `clipEnd`,
/// or whose `clipEnd` is past the end of its file, ends with the file. Text-only phrases are
/// announced and passed, unless ``onTextOnly`` takes them (to speak them): then the next
/// phrase waits for ``textOnlyDone(_:)``. The engine reads the audio from the publication's
/// fetcher, decrypted in memory for a protected book.
@MainActor
public final class MediaOverlayPlayer {
    public let book: MediaOverlayBook
    public private(set) var timeline: MediaOverlayTimeline
    /// The audio files, by engine track index.
    public let audioHrefs: [String]
    /// The allowed playback rates (pitch kept).
    public nonisolated static let speedRange: ClosedRange<Double> = 0.5...3

    /// The phrase being read (an index into the timeline's entries).
    public private(set) var phraseIndex: Int?
    /// The position in the current audio file, in seconds.
    public private(set) var fileTime: Double = 0
    public private(set) var isPlaying = false
    public private(set) var hasEnded = false
    /// The last playback failure.
    public private(set) var error: String?
    public private(set) var speed: Double = 1
    /// Called when a phrase starts being read (after a move too), with its index.
    public var onPhrase: ((Int) -> Void)?
    /// Called after other changes: the position, the end, an error.
    public var onChange: (() -> Void)?
    /// Called when a text-only phrase is reached while playing (and again on resuming in
    /// one), with its index; true when the caller reads it, calling ``textOnlyDone(_:)``
    /// after, false to pass it at once.
    public var onTextOnly: ((Int) -> Bool)?

    private let engine: any AudioEngine
    private let skipping: Set<String>
    private var durations: [String: Double] = [:]
    private var loadedFile: Int?
    private var isLoading = false
    /// Counts the moves between phrases, so that a timer set before one does nothing after it.
    private var moves = 0
    /// A clip whose end is a time is left this close to it (decoders report a frame at a time).
    static let endTolerance = 0.01

    public init(book: MediaOverlayBook, engine: any AudioEngine, skipping: Set<String> = MediaOverlayStructures.skippable) {
        self.book = book
        self.engine = engine
        self.skipping = skipping
        audioHrefs = book.audioHrefs
        timeline = MediaOverlayTimeline(book: book, skipping: skipping)
        engine.onEvent = { [weak self] event in self?.handle(event) }
    }

    /// A player for `publication`'s overlays playing to `output` through libmpv.
    public convenience init(book: MediaOverlayBook, publication: Publication, output: AudioOutput,
                            skipping: Set<String> = MediaOverlayStructures.skippable,
                            quietStandardError: Bool = false) throws(AudioPlaybackError) {
        let hrefs = book.audioHrefs
        guard !hrefs.isEmpty else { throw .noAudio }
        let engine = try MPVAudioEngine(output: output, quietStandardError: quietStandardError) { index in
            hrefs.indices.contains(index) ? publication.get(hrefs[index]) : nil
        }
        self.init(book: book, engine: engine, skipping: skipping)
    }

    /// The current phrase's entry.
    public var currentEntry: MediaOverlayTimeline.Entry? {
        phraseIndex.flatMap { timeline.entries.indices.contains($0) ? timeline.entries[$0] : nil }
    }

    /// The position on the book's clock, in seconds.
    public var bookTime: Double {
        guard let entry = currentEntry else { return 0 }
        return entry.start + min(max(fileTime - entry.fileBegin, 0), max(entry.duration, 0))
    }

    // MARK: - Transport

    public func play() {
        hasEnded = false
        isPlaying = true
        if let index = phraseIndex, loadedFile != nil {
            if currentEntry?.audioHref == nil { passTextOnly(index) } else { engine.setPaused(false) }
        } else {
            start(phraseIndex ?? 0)
        }
        onChange?()
    }

    public func pause() {
        isPlaying = false
        engine.setPaused(true)
        onChange?()
    }

    public func togglePlayPause() { isPlaying ? pause() : play() }

    /// Goes to `seconds` on the book's clock: the phrase read then, at the right place in it.
    public func seek(toBookTime seconds: Double) {
        guard let index = timeline.index(at: seconds) else { return }
        let entry = timeline.entries[index]
        start(index, offset: min(max(seconds - entry.start, 0), entry.duration))
    }

    /// Goes to the start of phrase `index` (clamped to the book).
    public func go(toPhrase index: Int) {
        guard !timeline.entries.isEmpty else { return }
        start(min(max(index, 0), timeline.entries.count - 1))
    }

    public func nextPhrase() {
        guard let index = phraseIndex, index + 1 < timeline.entries.count else { return }
        start(index + 1)
    }

    public func previousPhrase() {
        start(max((phraseIndex ?? 0) - 1, 0))
    }

    public func setSpeed(_ value: Double) {
        guard value.isFinite else { return }
        speed = min(max(value, Self.speedRange.lowerBound), Self.speedRange.upperBound)
        engine.setSpeed(speed)
        onChange?()
    }

    /// Stops playback and frees the engine (before the publication is closed).
    public func close() {
        isPlaying = false
        engine.shutdown()
    }

    // MARK: - Moving between phrases

    /// Makes phrase `index` current and plays its audio from `offset` seconds into it.
    private func start(_ index: Int, offset: Double = 0) {
        guard timeline.entries.indices.contains(index) else { return finish() }
        hasEnded = false
        phraseIndex = index
        moves += 1
        let entry = timeline.entries[index]
        onPhrase?(index)
        guard let href = entry.audioHref, let file = audioHrefs.firstIndex(of: href) else {
            // Text only: nothing to hear (the file's rest must not be heard meanwhile); while
            // playing, the next phrase follows (once it is read).
            if loadedFile != nil { engine.setPaused(true) }
            if isPlaying { passTextOnly(index) }
            return
        }
        let target = entry.fileBegin + offset
        fileTime = target
        if loadedFile == file, !isLoading {
            engine.seek(to: target)
            if isPlaying { engine.setPaused(false) }
        } else {
            loadedFile = file
            isLoading = true
            engine.load(track: file, at: target, paused: !isPlaying)
            engine.setSpeed(speed)
        }
    }

    /// Goes on from text-only phrase `index` once read, unless the player moved since.
    public func textOnlyDone(_ index: Int) {
        guard isPlaying, phraseIndex == index, currentEntry?.audioHref == nil else { return }
        advance(from: index)
    }

    /// The text-only phrase `index` is read by ``onTextOnly``'s caller, else passed.
    private func passTextOnly(_ index: Int) {
        if onTextOnly?(index) != true { advance(from: index) }
    }

    /// The phrase after `index` follows: without a move when its clip continues the file.
    private func advance(from index: Int) {
        let next = index + 1
        guard timeline.entries.indices.contains(next) else { return finish() }
        let current = timeline.entries[index], following = timeline.entries[next]
        if loadedFile != nil, MediaOverlayTimeline.continues(current, with: following) {
            phraseIndex = next
            onPhrase?(next)
        } else {
            start(next)
        }
    }

    private func finish() {
        isPlaying = false
        hasEnded = true
        engine.setPaused(true)
        onChange?()
    }

    // MARK: - Engine events

    private func handle(_ event: AudioEngineEvent) {
        switch event {
        case .loaded(let track, let duration):
            guard track == loadedFile else { return }
            isLoading = false
            error = nil
            if let duration, duration > 0 { learn(duration, ofTrack: track) }
            onChange?()
        case .duration(let duration):
            if let track = loadedFile, duration > 0 { learn(duration, ofTrack: track) }
        case .seekCompleted(let position):
            guard !isLoading else { return }
            fileTime = position
            onChange?()
        case .position(let time):
            guard !isLoading else { return }
            fileTime = time
            if isPlaying, let index = phraseIndex, let entry = currentEntry, entry.audioHref != nil, !entry.endsWithFile,
               time >= entry.fileEnd - Self.endTolerance {
                advance(from: index)
            }
            onChange?()
        case .ended(let track):
            guard track == loadedFile else { return }
            loadedFile = nil
            guard isPlaying, let index = phraseIndex, currentEntry?.audioHref != nil else { return }
            // The file is over: its clip (and any later clip of it in a row) is done. An output
            // that ends before the audio has been heard (the null output drops its last buffer)
            // leaves the rest to a timer, so that the next phrase still comes at its time.
            let rest = (currentEntry?.audioHref.flatMap { durations[$0] } ?? fileTime) - fileTime
            guard rest > Self.endTolerance else { return advance(from: index) }
            let move = moves, delay = Int(rest / speed * 1000)
            Task { @MainActor [weak self] in
                try? await Task.sleep(for: .milliseconds(delay))
                guard let self, self.moves == move, self.isPlaying else { return }
                self.advance(from: index)
            }
        case .failed(let track, let message):
            if let track, track != loadedFile { return }
            isLoading = false
            isPlaying = false
            loadedFile = nil
            error = message
            onChange?()
        case .noOutputDevice:
            break
        }
    }

    /// A decoded duration: clips without `clipEnd` or past the end of the file get their true
    /// length, and the timeline is laid out again (the phrase indices stay).
    private func learn(_ duration: Double, ofTrack track: Int) {
        guard audioHrefs.indices.contains(track), durations[audioHrefs[track]] != duration else { return }
        durations[audioHrefs[track]] = duration
        timeline = MediaOverlayTimeline(book: book, durations: durations, skipping: skipping)
    }

    /// The decoded duration of an audio file, once known.
    public func decodedDuration(of href: String) -> Double? { durations[href] }
}
