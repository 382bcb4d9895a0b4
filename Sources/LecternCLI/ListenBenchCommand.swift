import ArgumentParser
import AudioPlayback
import FoundationEssentials
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// `lectern listen-bench PATH` (hidden): times seeks of the audio player inside the process
/// (a whole-process figure would be mostly start-up and probing), and a full read of the same
/// track for comparison, as JSON for `Benchmarks/bench.py`.
///
/// A seek is timed from the request to mpv's playback restart at its target, playing to the
/// null output: stream seek, ranged read and decryption of the blocks landed on, demuxing,
/// decoding up to the exact target.
struct ListenBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen-bench",
        abstract: "Time audio seeks and a full read of a track in-process (benchmark aid).",
        shouldDisplay: false
    )

    @Argument(help: "The audiobook.", completion: .file())
    var path: String

    @OptionGroup var credentials: CredentialsOption

    @Option(help: "Seeks to time.")
    var seeks = 20

    @Option(help: "Full reads to time.")
    var reads = 2

    func run() async throws {
        let opened = try await PublicationLoader().openForCommand(path, credentials: credentials)
        let publication = opened.publication
        defer { publication.close() }
        try publication.requireUnlocked(path: path)
        guard let track = publication.readingOrder.first else { throw ValidationError("no track") }
        let report = try await SeekBench(publication: publication, seeks: max(seeks, 1)).run()

        var readTimes: [Double] = []
        var bytes = 0
        for _ in 0..<max(reads, 0) {
            let resource = publication.get(track)
            let start = ContinuousClock.now
            let data = try resource.read().get()
            readTimes.append(Self.milliseconds(ContinuousClock.now - start))
            bytes = data.count
            resource.close()
        }
        var object = report
        object["bytes"] = .int(bytes)
        object["readMs"] = .array(readTimes.map(JSONValue.double))
        Output.json(.object(object))
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}

/// The seeks, on the main actor where the engine reports.
@MainActor
private final class SeekBench {
    let publication: Publication
    let seeks: Int
    private var waiting: (target: Double, continuation: CheckedContinuation<Bool, Never>)?
    private var duration: Double?

    init(publication: Publication, seeks: Int) {
        self.publication = publication
        self.seeks = seeks
    }

    func run() async throws -> JSONObject {
        let links = publication.readingOrder
        let publication = self.publication
        let engine = try MPVAudioEngine(output: .null) { index in links.indices.contains(index) ? publication.get(links[index]) : nil }
        defer { engine.shutdown() }
        engine.onEvent = { [weak self] event in self?.handle(event) }
        engine.load(track: 0, at: 0, paused: false)
        guard await until(target: 0), let duration else { throw ValidationError("the track does not play") }

        var times: [Double] = []
        var bytes: [Double] = []
        for index in 0..<seeks {
            // Spread over the track, never twice near the same place (golden-ratio steps).
            let fraction = (Double(index + 1) * 0.618_033_988_7).truncatingRemainder(dividingBy: 1)
            let target = (0.05 + 0.9 * fraction) * duration
            let before = engine.statistics.bytesRead
            let start = ContinuousClock.now
            engine.seek(to: target)
            guard await until(target: target) else { throw ValidationError("no position after seeking to \(target)") }
            times.append(ListenBenchCommand.milliseconds(ContinuousClock.now - start))
            bytes.append(Double(engine.statistics.bytesRead - before))
        }
        return JSONObject(["duration": .double(duration), "seekMs": .array(times.map(JSONValue.double)),
                           "seekBytes": .array(bytes.map(JSONValue.double))])
    }

    /// Waits for the decoder to restart within a second of `target` (5 s at most).
    private func until(target: Double) async -> Bool {
        await withCheckedContinuation { continuation in
            waiting = (target, continuation)
            Task { [weak self] in
                try? await Task.sleep(for: .seconds(5))
                self?.finish(false)
            }
        }
    }

    private func finish(_ ok: Bool) {
        guard let waiting else { return }
        self.waiting = nil
        waiting.continuation.resume(returning: ok)
    }

    private func handle(_ event: AudioEngineEvent) {
        switch event {
        case .loaded(_, let decoded): duration = decoded
        case .duration(let decoded): duration = decoded
        case .seekCompleted(let time):
            if let waiting, abs(time - waiting.target) < 1, duration != nil { finish(true) }
        case .position, .noOutputDevice: break
        case .failed, .ended: finish(false)
        }
    }
}
