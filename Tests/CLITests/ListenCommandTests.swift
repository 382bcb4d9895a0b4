import Foundation
import Testing
import TestSupport

/// `lectern listen` on the audiobook samples, to the null output, run as a process.
@Suite struct ListenCommandTests {
    let lectern = LecternProcess()

    func listen(_ arguments: [String], environment: [String: String] = [:]) throws -> (LecternProcess.Result, [[String: Any]]) {
        let result = try lectern.run(["listen", "--json"] + arguments, timeout: 60, environment: environment)
        let events = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        return (result, events)
    }

    func positions(_ events: [[String: Any]]) -> [(track: Int, time: Double)] {
        events.compactMap { event in
            guard event["event"] as? String == "position", let track = event["track"] as? Int, let time = event["time"] as? Double
            else { return nil }
            return (track, time)
        }
    }

    /// Started from a saved Locator near the end of the first chapter: it plays into the second
    /// track, with chapters and progressions in the positions and the final Locator.
    @Test func aLocatorStartsPlaybackAndTheNextTrackFollows() throws {
        let start = #"{"href":"audio/ch1.mp3","type":"audio/mpeg","locations":{"fragments":["t=28.5"]}}"#
        let (result, events) = try listen(["--output", "null", "--start", start, "--for", "2", "--interval", "0.25",
                                           Fixtures.sample("audiobook/derived-w3c-mol-navigation.audiobook")])
        #expect(result.status == 0, "\(result.stderr)")
        let loaded = events.filter { $0["event"] as? String == "loaded" }
        #expect(loaded.map { $0["track"] as? Int } == [0, 1])
        #expect(abs((loaded.first?["duration"] as? Double ?? 0) - 29.218) < 0.2)
        let positions = positions(events)
        // The decoder lands on the frame nearest 28.5 s, which may start a few microseconds before.
        #expect(positions.first.map { $0.track == 0 && $0.time >= 28.45 } == true, "\(positions)")
        #expect(positions.last.map { $0.track == 1 && $0.time > 0 } == true, "\(positions)")
        #expect(events.contains { $0["chapter"] as? String == "Chapter 1, filler text" })
        let end = try #require(events.last)
        #expect(end["event"] as? String == "end")
        let locator = try #require(end["locator"] as? [String: Any])
        #expect(locator["href"] as? String == "audio/ch2.mp3")
        let locations = try #require(locator["locations"] as? [String: Any])
        #expect((locations["fragments"] as? [String])?.first?.hasPrefix("t=") == true)
        #expect((locations["totalProgression"] as? Double ?? 0) > 0.8)
    }

    /// Seconds as --start count from the start of the book; a negative seek goes back.
    @Test func secondsAndBackwardSeeks() throws {
        let (result, events) = try listen(["--start", "5", "--for", "2", "--seek=-3", "--seek-after", "0.8",
                                           Fixtures.sample("audiobook/swifttoolkit-audiotest.zab")],
                                          environment: ["LECTERN_AUDIO_OUTPUT": "null"])
        #expect(result.status == 0, "\(result.stderr)")
        let seek = try #require(events.first { $0["event"] as? String == "seek" })
        let from = try #require(seek["from"] as? Double), to = try #require(seek["to"] as? Double)
        #expect(abs((from - 3) - to) < 0.01)
        #expect(from >= 5)
        #expect((events.last?["output"] as? String) == "null")
    }

    @Test func aPublicationWithoutAudioIsRefused() throws {
        let (result, events) = try listen(["--output", "null", "--for", "1", Fixtures.sample("epub/idpf-wasteland.epub")])
        #expect(result.status == 1)
        #expect((events.first?["message"] as? String)?.contains("no audio tracks") == true, "\(result.stdout)")
    }

    @Test func aStartOutsideTheBookIsAnError() throws {
        let (result, _) = try listen(["--output", "null", "--start", #"{"href":"nowhere.mp3"}"#,
                                      Fixtures.sample("audiobook/swifttoolkit-audiotest.zab")])
        #expect(result.status == 2)
        let usage = try lectern.run(["listen", "--output", "speakers", Fixtures.sample("audiobook/swifttoolkit-audiotest.zab")])
        #expect(usage.status != 0)
        #expect(usage.stderr.contains("--output"))
    }

    /// Durations from the command line beyond what a clock holds are refused, not a crash.
    @Test(arguments: [["--interval", "1e16"], ["--interval", "nan"], ["--for", "1e300"], ["--interval", "0"]])
    func outOfRangeDurationsAreUsageErrors(arguments: [String]) throws {
        let result = try lectern.run(["listen", "--output", "null"] + arguments + [Fixtures.sample("audiobook/swifttoolkit-audiotest.zab")])
        #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
        #expect(result.stderr.contains(arguments[0]), "\(result.stderr)")
    }

    @Test func aMissingFileCannotBeOpened() throws {
        let (result, _) = try listen(["--output", "null", "/nonexistent/book.zab"])
        #expect(result.status == 2)
    }
}
