import ArgumentParser
import AudioPlayback
import FoundationEssentials
import ReadAloud
import Shared
import Streamer

/// The options of `lectern listen` for EPUB 3 Media Overlays.
struct OverlayListenOptions: ParsableArguments {
    @Flag(help: "With media overlays: also read page numbers, notes, sidebars and other skippable structures.")
    var readSkippable = false

    @Option(help: ArgumentHelp("With media overlays: stop once this many phrases have begun.", valueName: "count"))
    var phrases: Int?
}

extension ListenCommand {
    /// Whether `publication` is played from its media overlays (an EPUB with narration).
    func playsOverlays(_ publication: Publication) -> Bool {
        MediaOverlayBook.declared(in: publication)
    }

    /// Plays the book's media overlays, printing each phrase as it starts.
    func playOverlays(_ publication: Publication, output: AudioOutput) async throws {
        guard MediaOverlayPlayer.speedRange.contains(speed) else {
            throw ValidationError("--speed must be between 0.5 and 3 with media overlays")
        }
        if let count = overlays.phrases, count < 1 { throw ValidationError("--phrases must be at least 1") }
        try await listen(with: OverlayListenSession.self, to: publication, output: output)
    }
}

/// One `lectern listen` run over media overlays, on the main actor (where the player lives).
@MainActor
private final class OverlayListenSession: ListenSession {
    let command: ListenCommand
    let publication: Publication
    let output: AudioOutput
    private var texts: MediaOverlayTexts?
    private var started: ContinuousClock.Instant?
    private let clock = ContinuousClock()
    private var words: PrintedWords
    private var phrasesBegun = 0

    init(command: ListenCommand, publication: Publication, output: AudioOutput) {
        self.command = command
        self.publication = publication
        self.output = output
        words = PrintedWords(publication)
    }

    func run() async -> ExitCode {
        let book: MediaOverlayBook
        let player: MediaOverlayPlayer
        do throws(MediaOverlayError) {
            book = try MediaOverlayBook(publication: publication)
        } catch {
            return fail(error.userMessage, status: ExitStatus.cannotOpen)
        }
        do {
            player = try MediaOverlayPlayer(book: book, publication: publication, output: output,
                                            skipping: command.overlays.readSkippable ? [] : MediaOverlayStructures.skippable)
        } catch {
            return fail(error.userMessage, status: ExitCode.failure)
        }
        defer { player.close() }
        texts = MediaOverlayTexts(publication: publication, book: book)
        player.onPhrase = { [weak self, weak player] index in
            guard let self, let player else { return }
            self.announce(index, player)
        }
        if let start = command.start {
            if let seconds = Double(start), seconds.isFinite {
                player.seek(toBookTime: seconds)
            } else if let index = player.timeline.index(ofText: Locator(jsonString: start)?.href ?? start) {
                player.go(toPhrase: index)
            } else {
                return fail("--start designates no phrase of this book", status: ExitStatus.cannotOpen)
            }
        }
        player.setSpeed(command.speed)
        started = clock.now
        player.play()

        var seekPending = command.seek
        while true {
            try? await Task.sleep(for: .milliseconds(20))
            if let error = player.error { return fail(error, status: ExitCode.failure) }
            if player.hasEnded { return finish(player, reason: "ended") }
            if let count = command.overlays.phrases, phrasesBegun >= count { return finish(player, reason: "phrases") }
            let elapsed = self.elapsed
            if let duration = command.duration, elapsed >= duration { return finish(player, reason: "time") }
            if let by = seekPending, elapsed >= command.seekAfter {
                seekPending = nil
                let from = player.bookTime
                emit("seek", JSONObject(["by": .double(by), "from": .double(from), "to": .double(max(0, from + by))]),
                     text: "seek \(by < 0 ? "-" : "+")\(TimeText.seconds(abs(by))) s from \(TimeText.seconds(from)) s")
                player.seek(toBookTime: max(0, from + by))
            }
        }
    }

    private var elapsed: Double {
        guard let started else { return 0 }
        let duration = clock.now - started
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// One line per phrase as it starts: where its text is, what it says, the clip, the time.
    private func announce(_ index: Int, _ player: MediaOverlayPlayer) {
        // Two phrases can begin between two turns of the loop (a text-only one passes at once).
        if let count = command.overlays.phrases, phrasesBegun >= count { return }
        phrasesBegun += 1
        let entry = player.timeline.entries[index]
        let phrase = entry.phrase
        let text = texts?.text(of: phrase).flatMap { words.printable($0) }
        var fields = JSONObject(["href": .string(phrase.textHref), "position": .double(entry.start),
                                 "elapsed": .double(elapsed), "index": .int(index)])
        fields.set("fragment", phrase.fragment.map(JSONValue.string))
        fields.set("text", text.map(JSONValue.string))
        if let clip = phrase.clip {
            let known = !(entry.endsWithFile && player.decodedDuration(of: clip.href) == nil)
            fields["clip"] = .string(MediaOverlayClip(href: clip.href, begin: entry.fileBegin, end: known ? entry.fileEnd : clip.end).mediaFragment)
        } else {
            fields["textOnly"] = .bool(true)
        }
        emit("phrase", fields, text: "\(TimeText.clock(entry.start)) \(phrase.textLocation)"
             + (text.map { " " + TerminalText.singleLine($0) } ?? "") + (phrase.clip == nil ? " (text only)" : ""))
    }

    private func finish(_ player: MediaOverlayPlayer, reason: String) -> ExitCode {
        emit("end", JSONObject(["reason": .string(reason), "position": .double(player.bookTime),
                                "phrase": player.phraseIndex.map(JSONValue.int) ?? .null]),
             text: "\(reason == "ended" ? "ended" : "stopped") at \(TimeText.seconds(player.bookTime)) s")
        return ExitCode.success
    }

    private func fail(_ message: String, status: ExitCode) -> ExitCode {
        emit("error", JSONObject(["message": .string(message)]), text: "error: \(TerminalText.singleLine(message))")
        return status
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
