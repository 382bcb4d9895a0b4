import Foundation
import ReaderUI
import Testing

/// The reading pace from page turns, with time driven by the test (no sleeping).
@Suite struct ReadingPaceTests {
    /// A clock the test moves.
    final class ManualClock: ReadingClock, @unchecked Sendable {
        var time = Date(timeIntervalSince1970: 1_800_000_000)
        func now() -> Date { time }
        func advance(_ seconds: TimeInterval) { time += seconds }
    }

    @Test func theDefaultSpeedStandsInUntilEnoughIsRead() {
        let clock = ManualClock()
        var pace = ReadingPace()
        pace.show(chapter: 0, offset: 0, length: 400, at: clock.now())
        for page in 1...3 {
            clock.advance(30)
            pace.show(chapter: 0, offset: page * 400, length: 400, at: clock.now())
        }
        // 90 seconds, 1,200 characters: not enough yet.
        #expect(!pace.isMeasured)
        #expect(pace.charactersPerMinute == ReadingPace.defaultCharactersPerMinute)
        clock.advance(30)
        pace.show(chapter: 0, offset: 1600, length: 400, at: clock.now())
        // 120 seconds for 1,600 characters: 800 a minute, the person's own.
        #expect(pace.isMeasured)
        #expect(pace.charactersPerMinute == 800)
        #expect(pace.pagesTurned == 4)
        #expect(pace.minutes(toRead: 8000) == 10)
    }

    @Test func idleGapsAndJumpsAreNotReadingTime() {
        let clock = ManualClock()
        var pace = ReadingPace()
        pace.show(chapter: 0, offset: 0, length: 500, at: clock.now())
        // The person went away for ten minutes on this page.
        clock.advance(600)
        pace.show(chapter: 0, offset: 500, length: 500, at: clock.now())
        #expect(pace.activeSeconds == 0)
        #expect(pace.pagesTurned == 1)
        // A search jump far ahead, and back: neither a page read nor time.
        clock.advance(20)
        pace.show(chapter: 0, offset: 9000, length: 500, at: clock.now())
        clock.advance(20)
        pace.show(chapter: 0, offset: 500, length: 500, at: clock.now())
        #expect(pace.activeSeconds == 0 && pace.characters == 0)
        // The first page of the next chapter follows the last of this one.
        clock.advance(45)
        pace.show(chapter: 1, offset: 0, length: 500, at: clock.now())
        #expect(pace.activeSeconds == 45 && pace.characters == 500)
    }

    @Test func earlierSessionsCount() {
        var pace = ReadingPace()
        pace.include(seconds: 600, characters: 12_000)
        #expect(pace.charactersPerMinute == 1200)
    }

    @Test(arguments: [(0.2, "<1 min"), (12.4, "12 min"), (59.6, "1 h 00"), (185, "3 h 05")])
    func durations(minutes: Double, shown: String) {
        #expect(ReadingPace.duration(minutes: minutes) == shown)
    }
}
