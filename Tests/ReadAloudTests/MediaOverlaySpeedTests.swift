import AudioPlayback
import AudioTestSupport
import ReadAloud
import Testing

/// The overlay player's speed reaches the engine (mpv plays it), kept within what narration
/// stays intelligible at; the phrases do not change with it.
@MainActor
@Suite struct MediaOverlaySpeedTests {
    @Test func theSpeedAskedForReachesTheEngineWithinItsRange() async throws {
        let engine = ScriptedEngine()
        let player = MediaOverlayPlayer(book: try MediaOverlayBook(publication: try await openNarratedBook()), engine: engine)
        player.setSpeed(2)
        player.setSpeed(5)
        player.setSpeed(0.1)
        player.setSpeed(.nan)
        #expect(engine.calls == [.speed(2), .speed(3), .speed(0.5)])
        player.play()
        engine.send(.loaded(track: 0, duration: 4))
        engine.send(.position(0.5))
        #expect(player.phraseIndex == 0)
    }
}
