import FoundationEssentials
import LibMPV
import Logging
import Shared
import Synchronization

/// The ``AudioEngine`` on libmpv (loaded on first use).
///
/// Tracks are served to mpv through a custom protocol (`lectern-track://N`) whose reads are
/// ranged reads of the publication's resources: decrypted audio stays in memory. mpv runs on
/// its own threads; its events are drained on the main actor (the wake-up callback only
/// schedules the drain), so nothing here ever runs on mpv's threads except the stream reads.
@MainActor
public final class MPVAudioEngine: AudioEngine {
    public var onEvent: ((AudioEngineEvent) -> Void)?
    /// What the player has read from the publication.
    public let statistics = AudioReadStatistics()

    private let core: MPVCore
    private var pump: MainActorEventPump?
    /// Loads asked for whose `start-file` has not arrived: events until then are the old file's.
    private var pendingLoads = 0
    private var requestedTrack: Int?
    private var currentTrack: Int?
    private var lastError: String?
    private var isShutDown = false
    private let output: AudioOutput
    /// Whether the system's sound device was asked for and none opened (said once).
    private var noDeviceSaid = false
    /// Keeps the audio libraries' own messages off the terminal while the engine lives.
    private var quiet: QuietStandardError?
    private nonisolated static let loadTag: UInt64 = 1
    private nonisolated static let protocolName = "lectern-track"

    /// - Parameters:
    ///   - resource: the resource of track `index` (called on mpv's demuxer thread).
    ///   - quietStandardError: the terminal is a full-screen interface: what the audio
    ///     libraries print on standard error must not reach it (``QuietStandardError``).
    public init(output: AudioOutput, quietStandardError: Bool = false,
                resource: @escaping @Sendable (Int) -> (any Resource)?) throws(AudioPlaybackError) {
        guard MPV.isAvailable else { throw .libraryUnavailable }
        self.output = output
        // Before the core exists: its threads may print as soon as it starts.
        quiet = quietStandardError ? QuietStandardError() : nil
        var options: [(name: String, value: String)] = [
            ("config", "no"), ("terminal", "no"), ("idle", "yes"), ("keep-open", "no"), ("pause", "yes"),
            ("vid", "no"), ("vo", "null"), ("audio-display", "no"), ("osc", "no"), ("ytdl", "no"),
            ("load-scripts", "no"), ("input-default-bindings", "no"), ("input-vo-keyboard", "no"),
            ("resume-playback", "no"), ("save-position-on-quit", "no"), ("audio-file-auto", "no"),
            ("sub-auto", "no"), ("cover-art-auto", "no"), ("hr-seek", "yes"), ("audio-client-name", "lectern"),
            // Seek MP3s without a seek table by their bitrate: without it FFmpeg reads (and here
            // decrypts) everything up to the target to index it.
            ("demuxer-lavf-o", "fflags=+fastseek"),
            ("ao", output == .null ? "null" : "pipewire,pulse,alsa,null"),
        ]
        let statistics = self.statistics
        do {
            core = try Self.makeCore(options: &options)
            try core.registerStreams(protocol: Self.protocolName) { uri in
                guard let index = Self.trackIndex(in: uri), let resource = resource(index) else { return nil }
                return ResourceStreamSource(resource, statistics: statistics)
            }
            try core.observe("time-pos", as: .double)
            try core.observe("duration", as: .double)
            // Empty until an output opens; `null` when only the fallback did.
            try core.observe("current-ao", as: .string)
        } catch {
            throw error == .unavailable ? .libraryUnavailable : .engine(error.description)
        }
        // mpv's messages come here, to the diagnostic log, never to the terminal.
        core.requestLogMessages(level: "warn")
        let pump = MainActorEventPump { [weak self] in self?.drainEvents() }
        self.pump = pump
        core.setWakeup { pump.wake() }
    }

    /// A core with `options`; when the audio output list names a back end this libmpv lacks,
    /// again with mpv's own choice.
    private static func makeCore(options: inout [(name: String, value: String)]) throws(MPVError) -> MPVCore {
        do {
            return try MPVCore(options: options)
        } catch {
            guard let index = options.firstIndex(where: { $0.name == "ao" }), options[index].value != "null" else { throw error }
            options.remove(at: index)
            return try MPVCore(options: options)
        }
    }

    nonisolated static func trackIndex(in uri: String) -> Int? {
        guard uri.hasPrefix(protocolName + "://") else { return nil }
        let rest = uri.dropFirst(protocolName.count + 3)
        return Int(rest.prefix { $0.isNumber })
    }

    public var outputName: String? { isShutDown ? nil : core.string("current-ao") }

    public func load(track: Int, at time: Double, paused: Bool) {
        guard !isShutDown else { return }
        do {
            // Synchronous: the asynchronous load below must see it (async calls may be reordered).
            try core.setNow("start", time > 0 ? TimeText.seconds(time) : "none")
            try core.setNow("pause", paused ? "yes" : "no")
            try core.command(["loadfile", "\(Self.protocolName)://\(track)", "replace"], tag: Self.loadTag)
            pendingLoads += 1
            requestedTrack = track
            lastError = nil
        } catch {
            onEvent?(.failed(track: track, message: error.description))
        }
    }

    static let log = Diagnostics.logger("lectern.audio")

    public func seek(to time: Double) {
        guard !isShutDown else { return }
        // Playback goes on from where it was, which the position shows; the reason is logged.
        Self.log.attempt("seeking to \(time) s") { try core.command(["seek", TimeText.seconds(max(0, time)), "absolute+exact"]) }
    }

    public func setPaused(_ paused: Bool) {
        guard !isShutDown else { return }
        core.set("pause", paused)
    }

    public func setSpeed(_ speed: Double) {
        guard !isShutDown else { return }
        core.set("speed", speed)
    }

    public func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        pump?.stop()
        core.destroy()
        // mpv's threads are gone: nothing of the audio libraries prints any more.
        quiet = nil
    }

    /// mpv's message at `level`, to the diagnostic log.
    private func logMessage(level: String, prefix: String, text: String) {
        let line = "mpv \(prefix): \(text.trimmingTrailingNewlines)"
        switch level {
        case "fatal", "error": Self.log.error("\(line)")
        case "warn": Self.log.warning("\(line)")
        default: Self.log.debug("\(line)")
        }
    }

    /// Says once that the sound device was asked for and no output opened.
    private func noDevice() {
        guard output == .system, !noDeviceSaid else { return }
        noDeviceSaid = true
        Self.log.warning("no audio output opened; playing to none")
        onEvent?(.noOutputDevice)
    }

    /// Handles every pending event (on the main actor, after a wake-up).
    private func drainEvents() {
        while !isShutDown, let event = core.nextEvent(timeout: 0) {
            handle(event)
        }
    }

    private func handle(_ event: MPVEvent) {
        switch event {
        case .startFile:
            pendingLoads = max(0, pendingLoads - 1)
            if pendingLoads == 0 { currentTrack = requestedTrack }
        case .reply(let tag, let error) where tag == Self.loadTag && error < 0:
            pendingLoads = max(0, pendingLoads - 1)
            onEvent?(.failed(track: requestedTrack, message: MPVError.text(error)))
        case .log(let level, let prefix, let text):
            logMessage(level: level, prefix: prefix, text: text)
            if level == "error" || level == "fatal" { lastError = "\(prefix): \(text.trimmingTrailingNewlines)" }
            // Without the null fallback (a libmpv lacking a listed back end), mpv says this.
            if text.contains("Could not open/initialize audio device") { noDevice() }
        case .propertyChange(_, "current-ao", .string(let name)):
            if name == "null" { noDevice() }
        default:
            guard pendingLoads == 0, let track = currentTrack else { return }
            switch event {
            case .fileLoaded:
                onEvent?(.loaded(track: track, duration: core.double("duration")))
            case .playbackRestart:
                onEvent?(.seekCompleted(position: core.double("time-pos") ?? 0))
            case .propertyChange(_, "time-pos", .double(let time)):
                onEvent?(.position(time))
            case .propertyChange(_, "duration", .double(let duration)):
                onEvent?(.duration(duration))
            case .endFile(.endOfFile, _, _):
                currentTrack = nil
                onEvent?(.ended(track: track))
            case .endFile(.error, let error, _):
                currentTrack = nil
                onEvent?(.failed(track: track, message: lastError ?? MPVError.text(error)))
            default:
                break
            }
        }
    }
}

/// Turns mpv's wake-ups (on mpv's threads) into one drain at a time on the main actor.
final class MainActorEventPump: Sendable {
    private let scheduled = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    private let drain: @MainActor @Sendable () -> Void

    init(drain: @escaping @MainActor @Sendable () -> Void) {
        self.drain = drain
    }

    func wake() {
        guard !stopped.load(ordering: .relaxed),
              !scheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        Task { @MainActor in
            // Cleared first: a wake-up during the drain schedules another one.
            self.scheduled.store(false, ordering: .releasing)
            guard !self.stopped.load(ordering: .relaxed) else { return }
            self.drain()
        }
    }

    func stop() { stopped.store(true, ordering: .relaxed) }
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}
