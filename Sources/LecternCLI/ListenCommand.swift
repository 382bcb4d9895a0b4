import ArgumentParser
import AudioPlayback
import FoundationEssentials
import Shared

/// `lectern listen PATH`: plays an audiobook without the reader (headless use and tests),
/// printing the position as it moves.
struct ListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Play an audiobook's tracks, printing the position as it moves.",
        discussion: """
            Decrypted audio is streamed to the player from memory. --output null plays in real \
            time to no device (machines without sound; LECTERN_AUDIO_OUTPUT=null forces it). \
            Exit status: 0 played, 1 playback failed, 2 cannot be opened, 3 restricted.
            """
    )

    @Argument(help: "The audiobook file, folder or URL.", completion: .file())
    var path: String

    @OptionGroup var credentials: CredentialsOption

    @Option(help: ArgumentHelp("Where the sound goes: default (the sound device) or null.", valueName: "output"))
    var output: String = "default"

    @Option(help: ArgumentHelp("Where to start: a Locator (JSON) or seconds from the start of the book.", valueName: "locator|seconds"))
    var start: String?

    @Option(help: ArgumentHelp("Once playing for --seek-after seconds, move by this many seconds (back: --seek=-15).", valueName: "seconds"))
    var seek: Double?

    @Option(help: ArgumentHelp("When to apply --seek, in seconds of playback.", valueName: "seconds"))
    var seekAfter: Double = 1

    @Option(name: .customLong("for"), help: ArgumentHelp("Stop after this many seconds (default: the end of the book).", valueName: "seconds"))
    var duration: Double?

    @Option(help: ArgumentHelp("Playback rate, 0.75 to 2.", valueName: "rate"))
    var speed: Double = 1

    @Option(help: ArgumentHelp("Seconds between position lines.", valueName: "seconds"))
    var interval: Double = 0.5

    @Flag(help: "Print one JSON object per line (events) instead of text.")
    var json = false

    @OptionGroup var overlays: OverlayListenOptions

    @OptionGroup var speech: SpeechListenOptions

    func validate() throws {
        guard AudioOutput(name: output) != nil else { throw ValidationError("--output must be default or null") }
        // Bounded so that converting them to clock durations cannot trap (`--interval 1e16`).
        guard interval > 0, interval <= 86_400 else { throw ValidationError("--interval must be between 0 and 86,400 seconds") }
        if let duration, !(duration > 0 && duration <= ExternalNumbers.maxDuration) {
            throw ValidationError("--for must be positive and at most \(Int(ExternalNumbers.maxDuration)) seconds")
        }
    }

    func run() async throws {
        let opened = try await PublicationLoader().openForCommand(path, credentials: credentials)
        let publication = opened.publication
        defer { publication.close() }
        try publication.requireUnlocked(path: path)
        let requested = AudioOutput.resolved(AudioOutput(name: output) ?? .system,
                                             environment: ProcessInfo.processInfo.environment)
        // --tts reads the text aloud, whatever audio the book has (ListenCommand+Speech.swift).
        if speech.tts { return try await speak(publication, output: requested) }
        // An EPUB with narration (media overlays) plays it, its text followed phrase by phrase.
        if playsOverlays(publication) { return try await playOverlays(publication, output: requested) }
        try await listen(with: AudiobookListenSession.self, to: publication, output: requested)
    }
}

/// One `lectern listen` run over an audiobook's tracks, on the main actor (where the player lives).
@MainActor
private final class AudiobookListenSession: ListenSession {
    let command: ListenCommand
    let publication: Publication
    let output: AudioOutput
    private var announced: Set<Int> = []

    init(command: ListenCommand, publication: Publication, output: AudioOutput) {
        self.command = command
        self.publication = publication
        self.output = output
    }

    func run() async -> ExitCode {
        let player: AudiobookPlayer
        do {
            player = try AudiobookPlayer(publication: publication, output: output)
        } catch {
            emit("error", JSONObject(["message": .string(error.userMessage)]), text: "error: \(error.userMessage)")
            return ExitCode.failure
        }
        defer { player.close() }
        player.onChange = { [weak self, weak player] in
            guard let self, let player else { return }
            self.announceLoad(player)
        }
        if let start = command.start {
            let found: Bool
            if let seconds = Double(start) {
                found = player.go(toBookTime: seconds)
            } else if let locator = Locator(jsonString: start) {
                found = player.go(to: locator)
            } else {
                found = false
            }
            guard found else {
                emit("error", JSONObject(["message": .string("--start designates no track of this book")]),
                     text: "error: --start designates no track of this book")
                return ExitCode(2)
            }
        }
        player.setSpeed(command.speed)
        player.play()

        let clock = ContinuousClock()
        let begin = clock.now
        var seekPending = command.seek
        var lastPrinted: (Int, Double)?
        while true {
            try? await Task.sleep(for: .milliseconds(Int(command.interval * 1000)))
            let elapsed = seconds(clock.now - begin)
            if let error = player.error {
                emit("error", JSONObject(["message": .string(error), "locator": player.locator.json]), text: "error: \(error)")
                return ExitCode.failure
            }
            if !player.isLoading, lastPrinted.map({ $0 != (player.trackIndex, player.time) }) ?? true {
                lastPrinted = (player.trackIndex, player.time)
                printPosition(player)
            }
            if player.hasEnded { return finish(player, reason: "ended") }
            if let duration = command.duration, elapsed >= duration { return finish(player, reason: "time") }
            if let by = seekPending, !player.isLoading, elapsed >= command.seekAfter {
                seekPending = nil
                let from = player.time
                player.skip(by: by)
                emit("seek", JSONObject(["by": .double(by), "from": .double(from), "track": .int(player.trackIndex), "to": .double(player.time)]),
                     text: "seek \(by < 0 ? "-" : "+")\(TimeText.seconds(abs(by))) s → track \(player.trackIndex + 1) at \(TimeText.seconds(player.time)) s")
            }
        }
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private func announceLoad(_ player: AudiobookPlayer) {
        let index = player.trackIndex
        guard !player.isLoading, let decoded = player.decodedDuration(ofTrack: index), !announced.contains(index) else { return }
        announced.insert(index)
        let track = player.tracks[index]
        var fields = JSONObject(["track": .int(index), "href": .string(track.link.href), "title": .string(track.title),
                                  "duration": .double(decoded)])
        fields.set("declaredDuration", track.declaredDuration.map(JSONValue.double))
        emit("loaded", fields, text: "track \(index + 1)/\(player.tracks.count) \(track.title): decoded duration \(TimeText.seconds(decoded)) s"
             + (track.declaredDuration.map { " (declared \(TimeText.seconds($0)) s)" } ?? ""))
    }

    private func printPosition(_ player: AudiobookPlayer) {
        let locator = player.locator
        var fields = JSONObject(["track": .int(player.trackIndex), "time": .double(player.time)])
        fields.set("progression", locator.locations.progression.map(JSONValue.double))
        fields.set("totalProgression", locator.locations.totalProgression.map(JSONValue.double))
        fields.set("chapter", player.currentChapter.map { .string($0.title) })
        emit("position", fields, text: "position \(player.trackIndex + 1)/\(player.tracks.count) \(TimeText.seconds(player.time)) s  \(player.statusText)")
    }

    private func finish(_ player: AudiobookPlayer, reason: String) -> ExitCode {
        let statistics = player.readStatistics
        emit("end", JSONObject(["reason": .string(reason), "locator": player.locator.json,
                                 "bytesRead": .int(Int(statistics?.bytesRead ?? 0)), "reads": .int(statistics?.reads ?? 0),
                                 "output": .string(player.outputName ?? "")]),
             text: "\(reason == "ended" ? "ended" : "stopped") at \(player.locator.jsonString)\nread \(statistics?.bytesRead ?? 0) bytes in \(statistics?.reads ?? 0) reads; output \(player.outputName ?? "none")")
        return ExitCode.success
    }

    private func emit(_ event: String, _ fields: JSONObject, text: String) {
        if command.json {
            var object = JSONObject(["event": .string(event)])
            for member in fields.members { object[member.key] = member.value }
            Output.line(JSONWriter().string(.object(object)))
        } else {
            Output.line(text)
        }
        Output.flush()
    }
}
