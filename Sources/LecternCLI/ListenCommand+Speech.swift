import ArgumentParser
import AudioPlayback
import FoundationEssentials
import Shared
import Speech
import TextLayout

/// The options of `lectern listen` for reading a book's text aloud.
struct SpeechListenOptions: ParsableArguments {
    @Flag(help: "Read the text aloud (text-to-speech, espeak-ng) instead of playing audio.")
    var tts = false

    @Flag(help: "With --tts --json: also print a line per word as it is spoken.")
    var words = false

    @Option(help: ArgumentHelp("With --tts: the espeak-ng voice (default: the text's language).", valueName: "name"))
    var voice: String?

    @Option(help: ArgumentHelp("With --tts: speech-dispatcher, espeak-ng or auto (speech-dispatcher when its server answers, "
                               + "except with --output null or --voice; default: LECTERN_SPEECH_ENGINE, else auto).",
                               valueName: "engine"))
    var engine: String?
}

extension ListenCommand {
    /// `--tts`: speaks the chapters' text (the reader's, ``TextDocument/plainText``) sentence by
    /// sentence. Reading aloud is not copying: a protected book is read unless its protection
    /// restricts it (checked before, with the reason).
    func speak(_ publication: Publication, output: AudioOutput) async throws {
        guard speed >= 0.25, speed <= 10 else { throw ValidationError("--speed must be between 0.25 and 10 with --tts") }
        try await listen(with: SpeechListenSession.self, to: publication, output: output)
    }
}

/// One `lectern listen --tts` run.
@MainActor
private final class SpeechListenSession: ListenSession {
    let command: ListenCommand
    let publication: Publication
    let output: AudioOutput
    private var words: PrintedWords

    init(command: ListenCommand, publication: Publication, output: AudioOutput) {
        self.command = command
        self.publication = publication
        self.output = output
        words = PrintedWords(publication)
    }

    func run() async -> ExitCode {
        let environment = ProcessInfo.processInfo.environment
        let choice: SpeechEngineChoice
        if let name = command.speech.engine {
            guard let named = SpeechEngineChoice(rawValue: name) else {
                return fail("--engine must be speech-dispatcher, espeak-ng or auto", status: ExitCode(2))
            }
            choice = named
        } else {
            choice = .from(environment: environment)
        }
        let chapters = PublicationSentences(publication: publication)
        guard chapters.hasText else { return fail("this publication has no text to read aloud", status: ExitStatus.cannotOpen) }
        if let start = command.start {
            // A reading position (the `position` of a sentence line, or the reader's) or an href.
            let locator = Locator(jsonString: start) ?? (Double(start) == nil ? Locator(href: start, mediaType: nil) : nil)
            var found = false
            if let locator {
                do throws(SpeechError) { found = try chapters.start(at: locator) } catch { return fail(error.userMessage) }
            }
            guard found else {
                return fail("--start designates no chapter of this book (with --tts: a Locator or an href)", status: ExitCode(2))
            }
        }
        let pipeline: any SentenceSpeaker
        do {
            pipeline = try SentenceSpeakers.make(choice, voice: command.speech.voice, nullOutput: output == .null,
                                                 speed: command.speed, environment: environment)
        } catch {
            return fail(error.userMessage)
        }
        defer { pipeline.stop() }
        pipeline.start { () throws(SpeechError) -> SpokenSentence? in try chapters.next() }
        var start = JSONObject(["engine": .string(pipeline.name)])
        start.set("sampleRate", (pipeline as? SpeechPipeline).map { .int($0.sampleRate) })
        // What the system offers, whichever engine reads.
        start.set("speechDispatcher", SpeechDispatcher.detect(environment: environment).map { .string($0) })
        emit("start", start, text: "reading aloud with \(pipeline.name)")

        let clock = ContinuousClock()
        let begin = clock.now
        var sentences = 0
        var last: SpokenSentence?
        var outputKnown = false
        while true {
            for event in pipeline.poll() {
                switch event {
                case .sentence(let sentence, let boundary):
                    // The sound device was asked for and mpv fell back to none: said once, when known.
                    if !outputKnown, output == .system, pipeline.outputName != "mpv" {
                        outputKnown = true
                        if pipeline.outputName == "null" { Output.error(AudioOutput.noDeviceNotice) }
                    }
                    sentences += 1
                    last = sentence
                    announce(sentence, boundary: boundary)
                case .word(let href, let range):
                    if command.json && command.speech.words {
                        emit("word", JSONObject(["href": .string(href), "start": .int(range.lowerBound), "end": .int(range.upperBound)]),
                             text: "")
                    }
                case .finished:
                    return finish("ended", sentences: sentences, last: last, output: pipeline.outputName)
                case .failed(let error):
                    return fail(error.userMessage)
                }
            }
            if let duration = command.duration, seconds(clock.now - begin) >= duration {
                return finish("time", sentences: sentences, last: last, output: pipeline.outputName)
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    private func announce(_ sentence: SpokenSentence, boundary: SentenceBoundary?) {
        let printed = words.printable(sentence.chapterText)
        var fields = JSONObject(["href": .string(sentence.href),
                                  "start": .int(sentence.range.lowerBound), "end": .int(sentence.range.upperBound)])
        fields.set("text", printed.map(JSONValue.string))
        // What is said, when the note markers it passes over make it differ from the text.
        if printed != nil, sentence.text != sentence.chapterText { fields.set("spoken", .string(sentence.text)) }
        fields.set("position", sentence.position.map(\.json))
        // The voice's pause before it, and the time the output waited for its audio.
        fields.set("pause", boundary.map { .double($0.pause) })
        fields.set("gap", boundary.map { .double($0.wait) })
        fields.set("language", sentence.language.map(JSONValue.string))
        let line = printed == nil ? "\(sentence.href) \(sentence.range.lowerBound)–\(sentence.range.upperBound)"
            : String(sentence.text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        emit("sentence", fields, text: line)
    }

    private func finish(_ reason: String, sentences: Int, last: SpokenSentence?, output: String) -> ExitCode {
        var fields = JSONObject(["reason": .string(reason), "sentences": .int(sentences), "output": .string(output)])
        fields.set("locator", last?.position.map(\.json))
        emit("end", fields, text: "\(reason == "ended" ? "ended" : "stopped") after \(sentences) sentences; output \(output)")
        return ExitCode.success
    }

    private func fail(_ message: String, status: ExitCode = ExitCode.failure) -> ExitCode {
        if command.json { emit("error", JSONObject(["message": .string(message)]), text: "") }
        Output.error(message)
        return status
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private func emit(_ event: String, _ fields: JSONObject, text: String) {
        if command.json {
            var object = JSONObject(["event": .string(event)])
            for member in fields.members { object[member.key] = member.value }
            Output.line(JSONWriter().string(.object(object)))
        } else if !text.isEmpty {
            Output.line(text)
        }
        Output.flush()
    }
}
