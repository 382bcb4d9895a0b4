import Foundation
import Testing
import TestSupport

/// `lectern listen --tts --engine speech-dispatcher`: the text read through a private
/// speech-dispatcher server (its espeak-ng module speaking to ALSA's null device).
@Suite(.serialized) struct ListenSpeechDispatcherTests {
    let lectern = LecternProcess()

    func sentences(_ arguments: [String], environment: [String: String] = [:]) throws -> (LecternProcess.Result, [[String: Any]]) {
        let result = try lectern.run(["listen", "--tts", "--json", "--words"] + arguments, timeout: 300, environment: environment)
        let events = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        return (result, events)
    }

    /// The same sentences as espeak-ng's, in order, covering each chapter's text; words come
    /// from the server's index marks, inside the sentence said.
    @Test func sentencesThroughSpeechDispatcherCoverTheText() throws {
        let server = try PrivateSpeechDispatcher()
        defer { server.stop() }
        let path = Fixtures.temporaryDirectory("listen-speechd") + "/speech.epub"
        try TestEPUBs.write(title: "Speech", language: "en", body: """
            <h1>A Chapter</h1>
            <p>Mr. Smith paid 3.14 dollars at noon. Then he left… "Really?" she asked.</p>
            <p>Dr. Watson said: "Go!" It was far away.</p>
            """, to: path)
        let (result, events) = try sentences(["--engine", "speech-dispatcher", path], environment: ["SPEECHD_ADDRESS": server.address])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(events.first?["engine"] as? String == "speech-dispatcher", "\(result.stdout)")
        let (reference, espeak) = try sentences(["--engine", "espeak-ng", "--output", "null", "--speed", "10", path])
        #expect(reference.status == 0, "\(reference.stderr)")
        func spans(_ events: [[String: Any]]) -> [String] {
            events.filter { $0["event"] as? String == "sentence" }.map { "\($0["href"] ?? "") \($0["start"] ?? "")-\($0["end"] ?? "")" }
        }
        #expect(spans(events).count >= 5)
        #expect(spans(events) == spans(espeak))
        // Each word lies in the sentence announced before it, and they move forward.
        var sentence = 0..<0
        var last = -1
        var words = 0
        for event in events {
            switch event["event"] as? String {
            case "sentence":
                sentence = (event["start"] as? Int ?? 0)..<(event["end"] as? Int ?? 0)
                last = sentence.lowerBound - 1
            case "word":
                let start = try #require(event["start"] as? Int)
                #expect(sentence.contains(start) && start > last, "\(event) after \(sentence)")
                last = start
                words += 1
            default: break
            }
        }
        #expect(words >= 20)
        #expect(events.last?["event"] as? String == "end" && events.last?["reason"] as? String == "ended", "\(result.stdout)")
    }
}
