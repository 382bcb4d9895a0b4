import AudioPlayback
import AudioTestSupport
import Foundation
import ReadAloud
import Shared
import Streamer
import Testing
import TestSupport

/// The overlay player driven by a scripted engine: clips that follow each other play on, a gap
/// in the file is a seek, another file a load; the end of a file ends a clip without clipEnd.
@MainActor
@Suite struct MediaOverlayPlayerTests {
    func player() async throws -> (MediaOverlayPlayer, ScriptedEngine, Box) {
        let book = try MediaOverlayBook(publication: try await openNarratedBook())
        let engine = ScriptedEngine()
        let player = MediaOverlayPlayer(book: book, engine: engine)
        let announced = Box()
        player.onPhrase = { announced.phrases.append($0) }
        return (player, engine, announced)
    }

    final class Box { var phrases: [Int] = [] }

    @Test func clipsInARowPlayOnAndGapsMoveTheEngine() async throws {
        let (player, engine, announced) = try await player()
        player.play()
        #expect(engine.moves == [.load(track: 0, at: 0, paused: false)])
        engine.send(.loaded(track: 0, duration: 4))
        engine.send(.position(0.5))
        #expect(announced.phrases == [0])
        engine.send(.position(1.0))
        // c1p2 follows c1p1 in a.wav: no seek, no load.
        #expect(announced.phrases == [0, 1])
        #expect(engine.moves.count == 1)
        engine.send(.position(2.5))
        // The page number (2.5–2.8) is skipped: a seek over it.
        #expect(announced.phrases == [0, 1, 2])
        #expect(engine.moves.last == .seek(2.8))
        engine.send(.seekCompleted(position: 2.8))
        engine.send(.position(3.999))
        #expect(announced.phrases == [0, 1, 2], "a clip without clipEnd ends with its file, not before")
        engine.send(.ended(track: 0))
        #expect(announced.phrases == [0, 1, 2, 3])
        #expect(engine.moves.last == .load(track: 1, at: 0, paused: false))
        engine.send(.loaded(track: 1, duration: 3))
        engine.send(.position(1.5))
        #expect(announced.phrases == [0, 1, 2, 3, 4])
        engine.send(.position(2.995))
        engine.send(.ended(track: 1))
        // The text-only phrase is announced and passed; the book ends.
        #expect(announced.phrases == [0, 1, 2, 3, 4, 5])
        #expect(player.hasEnded)
        #expect(engine.moves.count == 3)
    }

    @Test func aSeekOnTheBookClockLoadsTheRightFileAtTheRightPlace() async throws {
        let (player, engine, announced) = try await player()
        player.play()
        engine.send(.loaded(track: 0, duration: 4))
        player.seek(toBookTime: 5.5)
        #expect(announced.phrases.last == 4)
        let move = try #require(engine.moves.last)
        guard case .load(let track, let time, _) = move else { Issue.record("\(move)"); return }
        #expect(track == 1 && abs(time - 1.8) < 1e-9)
        engine.send(.loaded(track: 1, duration: 3))
        #expect(abs(player.bookTime - 5.5) < 1e-9)
        player.previousPhrase()
        #expect(announced.phrases.last == 3)
        #expect(engine.moves.last == .seek(0))
    }

    /// An output that ends the file early (the null output drops its last buffer): the next
    /// phrase waits for the rest of the clip's time.
    @Test func anEarlyEndWaitsForTheRestOfTheClip() async throws {
        let (player, engine, announced) = try await player()
        player.play()
        engine.send(.loaded(track: 0, duration: 4))
        player.go(toPhrase: 2)
        engine.send(.position(3.6))
        let clock = ContinuousClock(), ended = clock.now
        engine.send(.ended(track: 0))
        #expect(announced.phrases.last == 2)
        #expect(await waitUntil { announced.phrases.last == 3 })
        #expect(clock.now - ended >= .milliseconds(350))
    }

    func waitUntil(_ condition: () -> Bool) async -> Bool {
        // Generous: a loaded CI machine can keep the player's timer waiting for seconds.
        (try? await StateWait.until("the player's state") { condition() }) != nil
    }
}
