import AudioPlayback
import AudioTestSupport
import Shared
import Testing
import TestSupport

/// The player model driven by a scripted engine: what it asks the engine for each action,
/// chapters, locators, track ends and failures.
@MainActor @Suite struct AudiobookPlayerModelTests {
    func player(_ durations: [Double?], toc: [Link] = []) -> (AudiobookPlayer, ScriptedEngine) {
        let engine = ScriptedEngine()
        return (AudiobookPlayer(publication: syntheticAudiobook(durations: durations, toc: toc), engine: engine), engine)
    }

    /// Plays and lets the engine report track `track` loaded.
    func started(_ player: AudiobookPlayer, _ engine: ScriptedEngine, track: Int = 0, duration: Double? = nil) {
        player.play()
        engine.send(.loaded(track: track, duration: duration))
    }

    @Test func chaptersOfTheW3CSampleResolveToTracksAndTimes() async throws {
        let publication = try await openPublication(Fixtures.sample("audiobook/derived-w3c-mol-navigation.audiobook"))
        defer { publication.close() }
        let player = AudiobookPlayer(publication: publication, engine: ScriptedEngine())
        #expect(player.tracks.map(\.title) == ["Chapter 1", "Chapter 2"])
        #expect(player.tracks.map(\.declaredDuration) == [29.218, 7.048])
        #expect(player.chapters == [
            AudiobookChapter(title: "Chapter 1", track: 0, start: 0, level: 0),
            AudiobookChapter(title: "Chapter 1, paragraph 2", track: 0, start: 1.233, level: 1),
            AudiobookChapter(title: "Chapter 1, filler text", track: 0, start: 7.603, level: 1),
            AudiobookChapter(title: "Chapter 2", track: 1, start: 0, level: 0),
        ])
        #expect(player.totalDuration == 29.218 + 7.048)
    }

    @Test func playLoadsTheFirstTrackOnceThenOnlyUnpauses() {
        let (player, engine) = player([10, 20])
        player.play()
        #expect(engine.calls.contains(.load(track: 0, at: 0, paused: false)))
        engine.send(.loaded(track: 0, duration: 10))
        player.pause()
        player.play()
        #expect(engine.calls.filter { if case .load = $0 { true } else { false } }.count == 1)
        #expect(engine.calls.suffix(2) == [.paused(true), .paused(false)])
        #expect(player.isPlaying)
    }

    @Test func skipsCrossTrackBoundariesAndStopAtTheEnds() {
        let (player, engine) = player([10, 20, 30])
        started(player, engine)
        player.skip(by: 15)
        #expect(engine.lastMove == .load(track: 1, at: 5, paused: false))
        engine.send(.loaded(track: 1, duration: nil))
        player.skip(by: -15)
        #expect(engine.lastMove == .load(track: 0, at: 0, paused: false))
        engine.send(.loaded(track: 0, duration: nil))
        player.skip(by: -60)
        #expect(engine.lastMove == .seek(0))
        player.skip(by: 60)
        #expect(engine.lastMove == .load(track: 2, at: 30, paused: false))
        #expect((player.trackIndex, player.time) == (2, 30))
    }

    @Test func aSkipWithinTheTrackSeeks() {
        let (player, engine) = player([100])
        started(player, engine)
        engine.send(.position(40))
        player.skip(by: 15)
        #expect(engine.lastMove == .seek(55))
        player.skip(by: -60)
        #expect(engine.lastMove == .seek(0))
    }

    @Test func decodedDurationsReplaceDeclaredOnes() {
        let (player, engine) = player([10, nil])
        #expect(player.totalDuration == nil)
        started(player, engine, duration: 12.5)
        #expect(player.duration(ofTrack: 0) == 12.5)
        #expect(player.decodedDuration(ofTrack: 1) == nil)
        player.nextTrack()
        engine.send(.loaded(track: 1, duration: 7.5))
        #expect(player.totalDuration == 20)
    }

    @Test func positionsOfTheOldTrackAreIgnoredWhileTheNewOneLoads() {
        let (player, engine) = player([10, 20])
        started(player, engine)
        player.nextTrack()
        engine.send(.position(9.9))
        #expect((player.trackIndex, player.time, player.isLoading) == (1, 0, true))
        engine.send(.loaded(track: 1, duration: 20))
        engine.send(.position(0.5))
        #expect(player.time == 0.5)
    }

    @Test func theEndOfATrackPlaysTheNextAndTheEndOfTheLastStops() {
        let (player, engine) = player([10, 20])
        started(player, engine)
        engine.send(.ended(track: 0))
        #expect(engine.lastMove == .load(track: 1, at: 0, paused: false))
        engine.send(.loaded(track: 1, duration: 20))
        engine.send(.ended(track: 1))
        #expect(player.hasEnded)
        #expect(!player.isPlaying)
        #expect((player.trackIndex, player.time) == (1, 20))
        #expect(player.statusText.hasPrefix("■ 2/2 0:20 / 0:20"))
        player.play()
        #expect(engine.lastMove == .load(track: 1, at: 20, paused: false))
    }

    @Test func chapterNavigationUsesTheMediaFragments() {
        let toc = [
            Link(href: "audio/track1.mp3", title: "One"),
            Link(href: "audio/track1.mp3#t=5", title: "One, later"),
            Link(href: "audio/track2.mp3#t=0", title: "Two", children: [Link(href: "audio/track2.mp3#t=12", title: "Two, later")]),
            Link(href: "elsewhere.mp3#t=3", title: "Not a track"),
        ]
        let (player, engine) = player([10, 20], toc: toc)
        #expect(player.chapters.map(\.title) == ["One", "One, later", "Two", "Two, later"])
        #expect(player.chapters.map(\.level) == [0, 0, 0, 1])
        started(player, engine)
        engine.send(.position(6))
        #expect(player.currentChapter?.title == "One, later")
        player.nextChapter()
        #expect(engine.lastMove == .load(track: 1, at: 0, paused: false))
        engine.send(.loaded(track: 1, duration: 20))
        player.nextChapter()
        #expect(engine.lastMove == .seek(12))
        engine.send(.position(13))
        player.nextChapter()   // none after: stays
        #expect(engine.lastMove == .seek(12))
        // More than three seconds in: back to the chapter's start; less: to the one before.
        engine.send(.position(16))
        player.previousChapter()
        #expect(engine.lastMove == .seek(12))
        engine.send(.position(12.5))
        player.previousChapter()
        #expect(engine.lastMove == .seek(0))
        engine.send(.position(1))
        player.previousChapter()
        #expect(engine.lastMove == .load(track: 0, at: 5, paused: false))
    }

    @Test func withoutContentsChaptersAreTracks() {
        let (player, engine) = player([10, 20])
        started(player, engine)
        player.nextChapter()
        #expect(engine.lastMove == .load(track: 1, at: 0, paused: false))
        engine.send(.loaded(track: 1, duration: 20))
        player.previousChapter()
        #expect(engine.lastMove == .load(track: 0, at: 0, paused: false))
        engine.send(.loaded(track: 0, duration: 10))
        player.previousTrack()
        #expect(engine.lastMove == .seek(0))
        player.nextTrack()
        engine.send(.loaded(track: 1, duration: 20))
        let calls = engine.calls.count
        player.nextTrack()   // the last: nothing
        #expect(engine.calls.count == calls)
    }

    @Test func speedIsClampedAndStepped() {
        let (player, engine) = player([10])
        player.setSpeed(3)
        #expect(player.speed == 2)
        player.setSpeed(0.1)
        #expect(player.speed == 0.75)
        player.setSpeed(1)
        player.changeSpeed(by: 0.25)
        #expect(player.speed == 1.25)
        player.setSpeed(.nan)
        #expect(player.speed == 1.25)
        #expect(engine.calls.last == .speed(1.25))
        #expect(player.statusText.contains("1.25×"))
    }

    @Test func theLocatorCarriesTheTrackTimeAndProgressions() throws {
        let toc = [Link(href: "audio/track2.mp3#t=4", title: "Part Two")]
        let (player, engine) = player([10, 20, 30], toc: toc)
        started(player, engine)
        player.skip(by: 15)
        engine.send(.loaded(track: 1, duration: nil))
        let locator = player.locator
        #expect(locator.href == "audio/track2.mp3")
        #expect(locator.mediaType == MediaType("audio/mpeg"))
        #expect(locator.title == "Part Two")
        #expect(locator.locations.fragments == ["t=5"])
        #expect(locator.locations.progression == 0.25)
        #expect(locator.locations.totalProgression == 0.25)

        // Saved as JSON, restored in another player: paused there until played.
        let saved = try #require(Locator(jsonString: locator.jsonString))
        let (restored, restoredEngine) = self.player([10, 20, 30])
        #expect(restored.go(to: saved))
        #expect((restored.trackIndex, restored.time) == (1, 5))
        #expect(restoredEngine.calls.isEmpty)
        restored.play()
        #expect(restoredEngine.lastMove == .load(track: 1, at: 5, paused: false))
    }

    @Test func locatorsWithoutATimeUseTheirProgressions() {
        let (player, _) = player([10, 20, 30])
        #expect(player.go(to: Locator(href: "audio/track3.mp3", mediaType: nil, locations: .init(progression: 0.5))))
        #expect((player.trackIndex, player.time) == (2, 15))
        #expect(player.go(to: Locator(href: "audio/track2.mp3#t=7", mediaType: nil)))
        #expect((player.trackIndex, player.time) == (1, 7))
        #expect(player.go(to: Locator(href: "gone.mp3", mediaType: nil, locations: .init(totalProgression: 0.5))))
        #expect((player.trackIndex, player.time) == (2, 0))
        #expect(!player.go(to: Locator(href: "gone.mp3", mediaType: nil, locations: .init(progression: 0.5))))
        #expect(player.go(to: Locator(href: "audio/track1.mp3", mediaType: nil, locations: .init(fragments: ["t=bogus"]))))
        #expect((player.trackIndex, player.time) == (0, 0))
    }

    @Test func aFailureStopsPlaybackWithItsMessage() {
        let (player, engine) = player([10, 20])
        started(player, engine)
        engine.send(.failed(track: 0, message: "demuxer: unrecognised data"))
        #expect(player.error == "demuxer: unrecognised data")
        #expect(!player.isPlaying)
        #expect(player.statusText.contains("unrecognised data"))
        // Playing again reloads, and a successful load clears the error.
        player.play()
        #expect(engine.lastMove == .load(track: 0, at: 0, paused: false))
        engine.send(.loaded(track: 0, duration: 10))
        #expect(player.error == nil)
    }

    @Test func closingShutsTheEngineDown() {
        let (player, engine) = player([10])
        started(player, engine)
        player.close()
        #expect(engine.calls.last == .shutdown)
        #expect(!player.isPlaying)
    }
}

extension AudiobookPlayerModelTests {
    @Test func aCompletedSeekGivesThePosition() {
        let (player, engine) = player([100])
        started(player, engine)
        player.seek(to: 40)
        #expect(player.time == 40)
        engine.send(.seekCompleted(position: 39.98))
        #expect(player.time == 39.98)
    }
}
