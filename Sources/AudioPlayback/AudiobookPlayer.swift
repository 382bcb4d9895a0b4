import FoundationEssentials
import Shared

/// Plays an audiobook: the model the reader's audiobook screen and `lectern listen` drive, on
/// the main actor.
///
/// It walks the publication's reading order one track at a time through an ``AudioEngine``
/// (``MPVAudioEngine`` unless one is given), moving to the next track at the end of each, and
/// knows the table of contents as ``chapters`` (`#t=` media fragments).
///
/// - Transport: ``play()``, ``pause()``, ``togglePlayPause()``, ``skip(by:)`` (±15 s, ±60 s;
///   crosses track boundaries), ``seek(to:)`` (in the current track), ``go(toTrack:at:)``,
///   ``nextTrack()``, ``previousTrack()``, ``nextChapter()``, ``previousChapter()``,
///   ``setSpeed(_:)`` / ``changeSpeed(by:)`` (0.75…2×, pitch kept).
/// - State: ``trackIndex``, ``time``, ``isPlaying``, ``isLoading``, ``hasEnded``, ``error``,
///   ``speed``, ``duration(ofTrack:)`` (decoded when known, else declared),
///   ``currentChapter``, ``statusText``.
/// - Position: ``locator`` (track href, `t=` fragment, progression, totalProgression) to save;
///   ``go(to:)`` to restore one.
/// - ``onChange`` is called after every change of state and about four times a second while
///   the position moves: redraw there.
/// - ``close()`` stops playback before the publication is closed.
@MainActor
public final class AudiobookPlayer {
    public let publication: Publication
    public let tracks: [AudiobookTrack]
    public let chapters: [AudiobookChapter]
    /// The allowed playback rates.
    public static let speedRange: ClosedRange<Double> = 0.75...2

    /// The current track (an index into ``tracks``).
    public private(set) var trackIndex = 0
    /// The position in the current track, in seconds.
    public private(set) var time: Double = 0
    /// Whether playback is wanted (not paused); audio may still be loading.
    public private(set) var isPlaying = false
    /// A track is being loaded (opened, probed, seeked to).
    public private(set) var isLoading = false
    /// The last track played to its end.
    public private(set) var hasEnded = false
    /// The last playback failure, cleared by the next successful load.
    public private(set) var error: String?
    /// Why there is no sound though playback goes on (``AudioOutput/noDeviceNotice``).
    public private(set) var notice: String?
    public private(set) var speed: Double = 1
    /// Called after each change (on the main actor).
    public var onChange: (() -> Void)?

    private let engine: any AudioEngine
    private var decodedDurations: [Int: Double] = [:]
    /// The track the engine has (or is loading); nil before the first load.
    private var loadedTrack: Int?
    private var lastNotifiedTime: Double = -1

    /// A player for `publication` with `engine`.
    public init(publication: Publication, engine: any AudioEngine) {
        self.publication = publication
        tracks = AudiobookTrack.tracks(of: publication)
        chapters = AudiobookChapter.chapters(of: publication.tableOfContents, tracks: tracks)
        self.engine = engine
        engine.onEvent = { [weak self] event in self?.handle(event) }
    }

    /// A player for `publication` playing to `output` through libmpv; `quietStandardError`
    /// when a full-screen interface owns the terminal (see ``MPVAudioEngine``).
    public convenience init(publication: Publication, output: AudioOutput, quietStandardError: Bool = false) throws(AudioPlaybackError) {
        guard publication.readingOrder.contains(where: { $0.mediaType?.isAudio ?? false }) else { throw .noAudio }
        let links = publication.readingOrder
        let engine = try MPVAudioEngine(output: output, quietStandardError: quietStandardError) { index in
            links.indices.contains(index) ? publication.get(links[index]) : nil
        }
        self.init(publication: publication, engine: engine)
    }

    /// The engine's read statistics when it is the libmpv engine.
    public var readStatistics: AudioReadStatistics? { (engine as? MPVAudioEngine)?.statistics }

    /// The output in use (`pulse`, `null`…), once a track is loaded.
    public var outputName: String? { engine.outputName }

    // MARK: - Durations and chapters

    /// The duration of track `index`: decoded when it has been loaded, else the manifest's.
    public func duration(ofTrack index: Int) -> Double? {
        decodedDurations[index] ?? (tracks.indices.contains(index) ? tracks[index].declaredDuration : nil)
    }

    /// The decoded duration of track `index`, once the decoder has reported it.
    public func decodedDuration(ofTrack index: Int) -> Double? { decodedDurations[index] }

    /// The total duration, when every track's is known.
    public var totalDuration: Double? {
        var total = 0.0
        for index in tracks.indices {
            guard let duration = duration(ofTrack: index) else { return nil }
            total += duration
        }
        return total
    }

    /// The chapter the position is in (the last one starting at or before it).
    public var currentChapter: AudiobookChapter? {
        guard let index = currentChapterIndex else { return nil }
        return chapters[index]
    }

    private var currentChapterIndex: Int? {
        chapters.lastIndex { ($0.track, $0.start) <= (trackIndex, time + Self.tolerance) }
    }

    /// Positions closer than this are the same (decoders land a few milliseconds off).
    static let tolerance = 0.25

    // MARK: - Transport

    public func play() {
        hasEnded = false
        isPlaying = true
        if loadedTrack == nil {
            load(track: trackIndex, at: time)
        } else {
            engine.setPaused(false)
        }
        notify()
    }

    public func pause() {
        isPlaying = false
        engine.setPaused(true)
        notify()
    }

    public func togglePlayPause() {
        isPlaying ? pause() : play()
    }

    /// Moves by `seconds` (negative: back), across track boundaries when the durations are
    /// known; stops at the start of the first track and the end of the last.
    public func skip(by seconds: Double) {
        var index = trackIndex
        var target = time + seconds
        while target < 0 {
            guard index > 0 else { target = 0; break }
            index -= 1
            guard let duration = duration(ofTrack: index) else { target = 0; break }
            target += duration
        }
        while let duration = duration(ofTrack: index), target >= duration {
            guard index + 1 < tracks.count else { target = duration; break }
            target -= duration
            index += 1
        }
        go(toTrack: index, at: target)
    }

    /// Seeks to `seconds` in the current track.
    public func seek(to seconds: Double) {
        go(toTrack: trackIndex, at: seconds)
    }

    /// Goes to `seconds` into track `index` (clamped to the tracks), playing if playing.
    public func go(toTrack index: Int, at seconds: Double = 0) {
        guard !tracks.isEmpty else { return }
        let index = min(max(index, 0), tracks.count - 1)
        let target = max(0, seconds)
        hasEnded = false
        if loadedTrack == index, !isLoading {
            trackIndex = index
            time = target
            engine.seek(to: target)
        } else if loadedTrack != nil || isPlaying {
            load(track: index, at: target)
        } else {
            // Nothing loaded and paused: remember; the first play loads there.
            trackIndex = index
            time = target
        }
        notify()
    }

    public func nextTrack() {
        guard trackIndex + 1 < tracks.count else { return }
        go(toTrack: trackIndex + 1)
    }

    /// The start of the previous track (of the current one when it is the first).
    public func previousTrack() {
        go(toTrack: trackIndex - 1)
    }

    /// The start of the next chapter; without a table of contents, the next track.
    public func nextChapter() {
        guard !chapters.isEmpty else { return nextTrack() }
        let position = (trackIndex, time + Self.tolerance)
        if let next = chapters.first(where: { ($0.track, $0.start) > position }) {
            go(toTrack: next.track, at: next.start)
        }
    }

    /// The start of the current chapter, or of the previous one when the position is within
    /// three seconds of the current one's start (as players do); without a table of contents,
    /// the previous track.
    public func previousChapter() {
        guard !chapters.isEmpty else { return previousTrack() }
        guard let current = currentChapterIndex else { return go(toTrack: trackIndex, at: 0) }
        let chapter = chapters[current]
        let intoChapter = chapter.track == trackIndex ? time - chapter.start : 3
        let target = intoChapter < 3 && current > 0 ? chapters[current - 1] : chapter
        go(toTrack: target.track, at: target.start)
    }

    /// Sets the playback rate, clamped to ``speedRange``.
    public func setSpeed(_ value: Double) {
        guard value.isFinite else { return }
        speed = min(max(value, Self.speedRange.lowerBound), Self.speedRange.upperBound)
        engine.setSpeed(speed)
        notify()
    }

    /// Changes the rate by `step` (e.g. ±0.25).
    public func changeSpeed(by step: Double) { setSpeed(((speed + step) * 100).rounded() / 100) }

    /// Stops playback and frees the audio engine (before the publication is closed).
    public func close() {
        isPlaying = false
        engine.shutdown()
    }

    // MARK: - Locators

    /// The position as a Locator: the track's href, `t=` fragment, progression in the track
    /// and in the whole book (from the durations, when known).
    public var locator: Locator {
        let track = tracks.isEmpty ? nil : tracks[min(trackIndex, tracks.count - 1)]
        var locations = Locator.Locations(fragments: [MediaFragment.fragment(start: time)])
        if let duration = duration(ofTrack: trackIndex), duration > 0 {
            locations.progression = min(max(time / duration, 0), 1)
        }
        if let total = totalDuration, total > 0 {
            let before = (0..<trackIndex).reduce(0.0) { $0 + (duration(ofTrack: $1) ?? 0) }
            locations.totalProgression = min(max((before + time) / total, 0), 1)
        }
        return Locator(href: track?.link.href ?? "", mediaType: track?.link.mediaType,
                       title: currentChapter?.title ?? track?.title, locations: locations)
    }

    /// Goes to `locator` (saved by ``locator``): its track, at its `t=` fragment, else at its
    /// progression in the track, else at its total progression. False when it designates no
    /// track of this book.
    @discardableResult
    public func go(to locator: Locator) -> Bool {
        if let index = AudiobookChapter.index(of: locator.href, in: tracks) {
            let fragments = locator.locations.fragments + (Href.fragment(of: locator.href).map { [$0] } ?? [])
            if let start = fragments.lazy.compactMap(MediaFragment.start(in:)).first {
                go(toTrack: index, at: start)
            } else if let progression = locator.locations.progression, let duration = duration(ofTrack: index) {
                go(toTrack: index, at: progression * duration)
            } else {
                go(toTrack: index, at: 0)
            }
            return true
        }
        if let total = locator.locations.totalProgression, let duration = totalDuration {
            return go(toBookTime: total * duration)
        }
        return false
    }

    /// Goes to `seconds` from the start of the book (across tracks by their durations; into
    /// the first track when they are unknown).
    @discardableResult
    public func go(toBookTime seconds: Double) -> Bool {
        guard !tracks.isEmpty else { return false }
        go(toTrack: 0, at: 0)
        skip(by: max(0, seconds))
        return true
    }

    // MARK: - Engine events

    private func load(track index: Int, at seconds: Double) {
        trackIndex = index
        time = seconds
        loadedTrack = index
        isLoading = true
        engine.load(track: index, at: seconds, paused: !isPlaying)
        engine.setSpeed(speed)
    }

    private func handle(_ event: AudioEngineEvent) {
        switch event {
        case .loaded(let track, let duration):
            guard track == loadedTrack else { return }
            isLoading = false
            error = nil
            if let duration, duration > 0 { decodedDurations[track] = duration }
            notify()
        case .duration(let duration):
            guard let track = loadedTrack, duration > 0 else { return }
            decodedDurations[track] = duration
            notify()
        case .seekCompleted(let seconds):
            guard !isLoading else { return }
            time = max(0, seconds)
            notify()
        case .position(let seconds):
            guard !isLoading else { return }
            time = max(0, seconds)
            if abs(time - lastNotifiedTime) >= 0.25 { notify() }
        case .ended(let track):
            guard track == loadedTrack else { return }
            if let duration = decodedDurations[track] { time = duration }
            if track + 1 < tracks.count {
                load(track: track + 1, at: 0)
            } else {
                loadedTrack = nil
                isPlaying = false
                hasEnded = true
            }
            notify()
        case .failed(let track, let message):
            if let track, track != loadedTrack { return }
            isLoading = false
            isPlaying = false
            loadedTrack = nil
            error = message
            notify()
        case .noOutputDevice:
            notice = AudioOutput.noDeviceNotice
            notify()
        }
    }

    private func notify() {
        lastNotifiedTime = time
        onChange?()
    }

    // MARK: - Status

    /// One line for a status bar: `▶ 2/12 3:04 / 10:41 1.25× — Chapter 3`; without a sound
    /// device, the ``notice`` in place of the rest, which would push it out of a narrow bar.
    public var statusText: String {
        let state = error != nil ? "✖" : hasEnded ? "■" : isPlaying ? "▶" : "❚❚"
        var text = "\(state) \(trackIndex + 1)/\(tracks.count) \(TimeText.clock(time))"
        if let duration = duration(ofTrack: trackIndex) { text += " / \(TimeText.clock(duration))" }
        if error == nil, let notice { return text + " — " + notice }
        if speed != 1 { text += " \(TimeText.seconds(speed))×" }
        if isLoading { text += " (loading)" }
        if let chapter = currentChapter { text += " — \(chapter.title)" }
        if let error { text += " — \(error)" }
        return text
    }
}
