import ArgumentParser
import FoundationEssentials
import ReadAloud
import Shared
import Streamer

/// `lectern overlay-bench PATH` (hidden): reads a narrated EPUB's media overlays, lays them on
/// the book's clock and times the lookup of the phrase at random times, inside the process
/// (a whole-process figure would be start-up), as JSON for `Benchmarks/bench.py`.
struct OverlayBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "overlay-bench",
        abstract: "Time media overlay phrase lookups in-process (benchmark aid).",
        shouldDisplay: false
    )

    @Argument(help: "The EPUB with media overlays.", completion: .file())
    var path: String

    @OptionGroup var credentials: CredentialsOption

    @Option(help: "Lookups to time.")
    var lookups = 10_000

    func run() async throws {
        let opened = try await PublicationLoader().openForCommand(path, credentials: credentials)
        let publication = opened.publication
        defer { publication.close() }
        try publication.requireUnlocked(path: path)
        let clock = ContinuousClock()
        let start = clock.now
        let book: MediaOverlayBook
        do throws(MediaOverlayError) {
            book = try MediaOverlayBook(publication: publication)
        } catch {
            throw ValidationError(error.userMessage)
        }
        let timeline = MediaOverlayTimeline(book: book)
        let loadMs = Self.milliseconds(clock.now - start)
        guard timeline.duration > 0 else { throw ValidationError("the overlays have no timed clip") }
        var generator = SystemRandomNumberGenerator()
        var times: [Double] = []
        times.reserveCapacity(max(lookups, 1))
        var misses = 0
        for _ in 0..<max(lookups, 1) {
            let time = Double.random(in: 0..<timeline.duration, using: &generator)
            let before = clock.now
            let index = timeline.index(at: time)
            times.append(Self.milliseconds(clock.now - before))
            if let index, !(timeline.entries[index].start <= time && time < timeline.entries[index].end) { misses += 1 }
        }
        Output.json(.object(JSONObject([
            "phrases": .int(timeline.entries.count), "duration": .double(timeline.duration), "loadMs": .double(loadMs),
            "lookupMs": .array(times.map(JSONValue.double)), "misses": .int(misses),
        ])))
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
