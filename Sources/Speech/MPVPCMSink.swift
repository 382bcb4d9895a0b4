import Dispatch
import LibMPV
import Synchronization

/// Plays synthesised speech on the sound device through libmpv: one endless raw-PCM stream
/// (`lectern-speech://`) whose reads wait for the next sentence's samples, so sentences follow
/// each other in one playback without reopening anything between them. The position is mpv's
/// `time-pos` (what has been heard, the device's latency allowed for).
public final class MPVPCMSink: PCMSink {
    public let sampleRate: Int
    private let core: MPVCore
    private let stream: PCMStreamSource
    private static let protocolName = "lectern-speech"

    /// Opens the sound device (PipeWire, PulseAudio or ALSA, else none: the position then
    /// moves in real time all the same).
    public init(sampleRate: Int) throws(SpeechError) {
        self.sampleRate = sampleRate
        guard MPV.isAvailable else {
            throw .engineMissing(detail: "libmpv, which plays the speech, is not installed (Debian package libmpv2)")
        }
        let stream = PCMStreamSource()
        self.stream = stream
        let options: [(name: String, value: String)] = [
            ("config", "no"), ("terminal", "no"), ("idle", "yes"), ("vid", "no"), ("vo", "null"), ("ytdl", "no"),
            ("load-scripts", "no"), ("input-default-bindings", "no"), ("resume-playback", "no"), ("audio-client-name", "lectern"),
            ("demuxer", "rawaudio"), ("demuxer-rawaudio-channels", "1"), ("demuxer-rawaudio-format", "s16le"),
            ("demuxer-rawaudio-rate", String(sampleRate)), ("cache", "no"), ("ao", "pipewire,pulse,alsa,null"),
        ]
        do {
            let core: MPVCore
            do { core = try MPVCore(options: options) } catch {
                // A libmpv without one of the back ends listed: its own choice.
                core = try MPVCore(options: options.filter { $0.name != "ao" })
            }
            self.core = core
            try core.registerStreams(protocol: Self.protocolName) { _ in stream }
            try core.command(["loadfile", "\(Self.protocolName)://speech", "replace"])
        } catch {
            throw .engineFailed("the sound output could not start: \(error)")
        }
    }

    public var outputName: String {
        core.string("current-ao").flatMap { $0.isEmpty ? nil : $0 } ?? "mpv"
    }

    public func append(_ samples: [Int16]) { stream.append(samples) }

    public var playedSamples: Int {
        // Events are not used: they are drained so that mpv's queue never fills.
        while core.nextEvent(timeout: 0) != nil {}
        let time = core.double("time-pos") ?? 0
        return min(stream.appendedSamples, Int((time * Double(sampleRate)).rounded()))
    }

    public var starvedSeconds: Double { stream.starvedSeconds }

    public func setPaused(_ paused: Bool) { core.set("pause", paused) }

    public func setRate(_ rate: Double) { core.set("speed", rate) }

    public func close() {
        stream.finish()
        core.destroy()
    }
}

/// The endless stream mpv reads: bytes appended by the synthesis thread, reads waiting for
/// them (on mpv's demuxer thread) until the stream is finished.
final class PCMStreamSource: MPVStreamSource {
    private struct State {
        var bytes: [UInt8] = []
        /// The stream offset of `bytes[0]` (what was read is dropped).
        var base: UInt64 = 0
        var appended = 0
        var finished = false
        var starved = 0.0
    }
    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)

    var size: UInt64? { nil }
    var appendedSamples: Int { state.withLock { $0.appended } }
    var starvedSeconds: Double { state.withLock { $0.starved } }

    func append(_ samples: [Int16]) {
        state.withLock { state in
            for sample in samples {
                let value = UInt16(bitPattern: sample.littleEndian)
                state.bytes.append(UInt8(value & 0xFF))
                state.bytes.append(UInt8(value >> 8))
            }
            state.appended += samples.count
        }
        available.signal()
    }

    func finish() {
        state.withLock { $0.finished = true }
        available.signal()
    }

    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        let clock = ContinuousClock()
        var waitedSince: ContinuousClock.Instant?
        while true {
            let result: Int?? = state.withLock { state in
                guard offset >= state.base else { return .some(nil) }
                let start = Int(offset - state.base)
                if start < state.bytes.count {
                    let count = min(buffer.count, state.bytes.count - start)
                    state.bytes.withUnsafeBytes { bytes in
                        buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + start, byteCount: count)
                    }
                    state.bytes.removeFirst(start + count)
                    state.base = offset + UInt64(count)
                    if let waitedSince, state.appended > 0 {
                        let waited = clock.now - waitedSince
                        state.starved += Double(waited.components.seconds) + Double(waited.components.attoseconds) / 1e18
                    }
                    return .some(count)
                }
                return state.finished ? .some(0) : nil
            }
            if let result { return result }
            if waitedSince == nil { waitedSince = clock.now }
            _ = available.wait(timeout: .now() + .milliseconds(50))
        }
    }

    func close() { finish() }
}
