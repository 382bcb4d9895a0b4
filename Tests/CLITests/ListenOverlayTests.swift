import Foundation
import Testing
import TestSupport

/// `lectern listen` on EPUBs with media overlays, run as a process to the null output: the
/// phrases printed as they start, in the SMIL's order and at its times.
@Suite struct ListenOverlayTests {
    let lectern = LecternProcess()

    func narratedBook() throws -> String {
        let path = Fixtures.temporaryDirectory("narrated") + "/narrated.epub"
        try MediaOverlayEPUB.write(to: path)
        return path
    }

    func listen(_ arguments: [String]) throws -> (LecternProcess.Result, [[String: Any]]) {
        let result = try lectern.run(["listen", "--json", "--output", "null"] + arguments, timeout: 60)
        let events = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        return (result, events)
    }

    func phrases(_ events: [[String: Any]]) -> [[String: Any]] { events.filter { $0["event"] as? String == "phrase" } }

    /// The whole book: every phrase in order, with its text, clip and place on the book's clock,
    /// printed when its audio starts (the clip without clipEnd and the one past the end of its
    /// file end with the file; the page number is skipped; the text-only phrase is passed).
    @Test func thePhrasesFollowTheSMILInOrderAndTime() throws {
        let (result, events) = try listen([try narratedBook()])
        #expect(result.status == 0, "\(result.stderr)")
        let printed = phrases(events)
        let expected = MediaOverlayEPUB.phrases
        #expect(printed.map { $0["fragment"] as? String } == expected.map(\.fragment), "\(result.stdout)")
        #expect(printed.map { $0["href"] as? String } == expected.map(\.href))
        #expect(printed.map { $0["text"] as? String } == expected.map(\.text))
        #expect(printed.map { $0["clip"] as? String } == ["OPS/audio/a.wav#t=0,1", "OPS/audio/a.wav#t=1,2.5", "OPS/audio/a.wav#t=2.8,4",
                                                          "OPS/audio/b.wav#t=0,1.5", "OPS/audio/b.wav#t=1.5,3", nil])
        #expect(printed.last?["textOnly"] as? Bool == true)
        for (line, phrase) in zip(printed, expected) {
            #expect(abs((line["position"] as? Double ?? -1) - phrase.start) < 1e-6, "\(line)")
        }
        // Played in real time: no phrase starts before the audio before it has played (the first
        // load's latency aside, give or take a decoder's frame). Only this bound: a loaded
        // machine may start any of them later (tests never assert an upper bound on time).
        let first = printed.first?["elapsed"] as? Double ?? 0
        for (line, phrase) in zip(printed, expected) {
            let elapsed = (line["elapsed"] as? Double ?? -100) - first
            #expect(elapsed > phrase.start - 0.1, "\(phrase.fragment) at \(elapsed) s")
        }
        #expect(events.last?["event"] as? String == "end")
        #expect(events.last?["reason"] as? String == "ended")
    }

    /// A seek lands on the phrase read at the target time, in the next chapter's file.
    @Test func aSeekLandsOnTheRightPhrase() throws {
        // --for is on the wall clock: long enough for the seek's phrase to begin on a loaded machine.
        let (result, events) = try listen(["--seek", "3.5", "--seek-after", "0.4", "--for", "4", try narratedBook()])
        #expect(result.status == 0, "\(result.stderr)")
        let seekIndex = try #require(events.firstIndex { $0["event"] as? String == "seek" })
        let from = try #require(events[seekIndex]["from"] as? Double)
        let target = try #require(events[seekIndex]["to"] as? Double)
        // 3.5 s on from where it was (how far it had played in 0.4 s depends on the machine's load).
        #expect(abs(target - (from + 3.5)) < 1e-6 && target >= 3.5, "\(events[seekIndex])")
        // Where the seek lands depends on when it was made (later on a loaded machine): the
        // phrase read at the target, usually c2p1, in the next chapter's file.
        let expected = MediaOverlayEPUB.phrases.first { $0.start <= target && target < $0.end }?.fragment
        let after = phrases(Array(events[seekIndex...]))
        #expect(after.first?["fragment"] as? String == expected, "\(result.stdout)")
        let before = phrases(Array(events[..<seekIndex])).compactMap { $0["fragment"] as? String }
        #expect(before.first == "c1p1" && before == MediaOverlayEPUB.phrases.prefix(before.count).map(\.fragment))
    }

    /// --start in seconds begins with the phrase read then (and within it); --read-skippable reads
    /// the page number.
    @Test func startAndSkippableStructures() throws {
        let book = try narratedBook()
        let (skipped, skippedEvents) = try listen(["--start", "2", "--phrases", "2", book])
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(phrases(skippedEvents).map { $0["fragment"] as? String } == ["c1p2", "c1p3"], "\(skipped.stdout)")
        #expect(skippedEvents.last?["reason"] as? String == "phrases")
        // Never early (a loaded machine may be late: no upper bound).
        let first = try #require(phrases(skippedEvents).first?["elapsed"] as? Double)
        let third = try #require(phrases(skippedEvents).last?["elapsed"] as? Double)
        #expect(third - first > 0.4, "c1p2 is read from 2 s to 2.5 s: c1p3 came after \(third - first) s")

        let (read, readEvents) = try listen(["--start", "2", "--phrases", "3", "--read-skippable", book])
        #expect(read.status == 0, "\(read.stderr)")
        let printed = phrases(readEvents)
        #expect(printed.map { $0["fragment"] as? String } == ["c1p2", "pg7", "c1p3"], "\(read.stdout)")
        #expect(printed.dropFirst().first?["clip"] as? String == "OPS/audio/a.wav#t=2.5,2.8")
    }

    /// Twice the speed: the next phrase comes after half its clip. --start in seconds finds the
    /// second chapter before any file is decoded (the first one's open clip timed by the
    /// overlay's declared duration); a text element names the same phrase.
    @Test func speedChangesTheTimeNotThePhrases() throws {
        let (byText, textEvents) = try listen(["--start", "OPS/chapter2.xhtml#c2p1", "--phrases", "1", try narratedBook()])
        #expect(byText.status == 0, "\(byText.stderr)")
        #expect(phrases(textEvents).first?["fragment"] as? String == "c2p1", "\(byText.stdout)")
        let (result, events) = try listen(["--start", "3.7", "--speed", "2", "--phrases", "2", try narratedBook()])
        #expect(result.status == 0, "\(result.stderr)")
        let printed = phrases(events)
        #expect(printed.map { $0["fragment"] as? String } == ["c2p1", "c2p2"], "\(result.stdout)")
        // Never faster than 2× (that the engine is asked for 2× is MediaOverlaySpeedTests'; how
        // long a loaded machine takes is not asserted).
        let gap = (printed.dropFirst().first?["elapsed"] as? Double ?? 0) - (printed.first?["elapsed"] as? Double ?? 0)
        #expect(gap > 0.6, "1.5 s of audio at 2× took \(gap) s")
        let refused = try lectern.run(["listen", "--output", "null", "--speed", "5", try narratedBook()])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--speed must be between 0.5 and 3"), "\(refused.stderr)")
    }

    /// The W3C's mol-navigation test book (real MP3s): its first phrases, in order, on time.
    @Test func theW3CSamplePlays() throws {
        let (result, events) = try listen(["--phrases", "3", Fixtures.sample("epub/w3c-mol-navigation.epub")])
        #expect(result.status == 0, "\(result.stderr)")
        let printed = phrases(events)
        #expect(printed.map { $0["fragment"] as? String } == ["mo-1", "mo-2", "mo-3"], "\(result.stdout)")
        #expect(printed.map { $0["clip"] as? String } == ["EPUB/audio/ch1.mp3#t=0,1.233", "EPUB/audio/ch1.mp3#t=1.233,7.603",
                                                          "EPUB/audio/ch1.mp3#t=7.603,12.398"])
        #expect(printed.first?["text"] as? String == "Chapter 1")
        let elapsed = printed.compactMap { $0["elapsed"] as? Double }
        // In real time, never early (no upper bound: a loaded machine may be late).
        #expect(elapsed.count == 3 && elapsed[2] - elapsed[0] > 7.603 - 0.3, "\(elapsed)")
    }

    /// A broken overlay is refused with its reason, before any sound.
    @Test func anInvalidOverlayIsRefusedWithItsReason() throws {
        var entries = [ZipBuilder.Entry("mimetype", "application/epub+zip", compression: .stored),
                       ZipBuilder.Entry("META-INF/container.xml", TestEPUBs.containerXML)]
        for resource in MediaOverlayEPUB.resources() {
            var data = resource.data
            if resource.path == "OPS/smil/chapter2.smil" {
                data = Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "clipEnd=\"99s\"", with: "clipEnd=\"soon\"").utf8)
            }
            entries.append(ZipBuilder.Entry(resource.path, data))
        }
        let path = Fixtures.temporaryDirectory("narrated-bad") + "/bad.epub"
        try ZipBuilder.write(entries, to: path)
        let (result, events) = try listen(["--for", "1", path])
        #expect(result.status == 2)
        let message = try #require(events.first?["message"] as? String)
        #expect(message.contains("OPS/smil/chapter2.smil (line 5) is invalid: clipEnd \"soon\" is not a clock value"), "\(message)")
        #expect(phrases(events).isEmpty)
    }
}
