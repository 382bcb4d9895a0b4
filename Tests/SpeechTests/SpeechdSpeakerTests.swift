import Speech
import Synchronization
import Testing
import TestSupport


/// Everything `speaker` pushes until it finishes.
private func heard(_ speaker: any SentenceSpeaker, _ text: SpeakableText) async -> [SpeechEvent] {
    let stream = speaker.events
    speaker.start(source(text))
    var all: [SpeechEvent] = []
    for await event in stream { all.append(event) }
    return all
}

/// speech-dispatcher through libspeechd, against a private server (its own socket; the
/// espeak-ng module speaking to ALSA's null device, so no sound card is needed).
@Suite(.serialized) struct SpeechdSpeakerTests {
    /// Each sentence is announced when the server begins it, then its words in order from
    /// the SSML's index marks, then the end: the same events as the espeak-ng pipeline's.
    @Test func indexMarksMoveThroughTheWordsInOrder() async throws {
        let server = try PrivateSpeechDispatcher()
        defer { server.stop() }
        let text = SpeakableText(href: "c.xhtml", text: "Hello there, wide world. It is a fine day & night.", language: "en")
        let speaker = try SpeechdSpeaker(environment: ["SPEECHD_ADDRESS": server.address], speed: 1)
        defer { speaker.stop() }
        let events = await heard(speaker, text)
        let characters = Array("Hello there, wide world. It is a fine day & night.")
        var said: [String] = []
        for event in events {
            switch event {
            case .sentence(let sentence, _): said.append("[\(sentence.index)]")
            case .word(let href, let range):
                #expect(href == "c.xhtml")
                said.append(String(characters[range]))
            case .finished: said.append("end")
            case .failed(let error): Issue.record("failed: \(error.userMessage)")
            }
        }
        #expect(said == ["[0]", "Hello", "there", "wide", "world", "[1]", "It", "is", "a", "fine", "day", "night", "end"])
    }

    /// `auto` takes speech-dispatcher when its server answers; asked for by name without a
    /// server, it says so (and `auto` would take espeak-ng).
    @Test func theEngineIsSpeechDispatcherWhenItsServerAnswers() async throws {
        let server = try PrivateSpeechDispatcher()
        defer { server.stop() }
        let speaker = try SentenceSpeakers.make(.automatic, nullOutput: false, speed: 1, environment: ["SPEECHD_ADDRESS": server.address])
        #expect(speaker is SpeechdSpeaker)
        speaker.stop()
        let nowhere = ["SPEECHD_ADDRESS": "unix_socket:\(server.folder)/none"]
        do {
            _ = try SentenceSpeakers.make(.speechDispatcher, nullOutput: false, speed: 1, environment: nowhere)
            Issue.record("speech-dispatcher without a server was taken")
        } catch {
            #expect(error.userMessage.contains("speech-dispatcher"), "\(error.userMessage)")
        }
    }
}
