import AudioPlayback
import AudioTestSupport
import Foundation
import Shared
import Testing
import TestSupport

/// Without a sound device the player goes on to no output and says so on its status line.
@MainActor
@Suite struct NoOutputDeviceTests {
    @Test func theStatusSaysThereIsNoDeviceAndPlaybackGoesOn() {
        let engine = ScriptedEngine()
        let player = AudiobookPlayer(publication: syntheticAudiobook(durations: [30, 20]), engine: engine)
        player.play()
        engine.send(.loaded(track: 0, duration: 30))
        engine.send(.noOutputDevice)
        engine.send(.position(3))
        #expect(player.isPlaying)
        #expect(player.error == nil)
        #expect(player.notice == AudioOutput.noDeviceNotice)
        #expect(player.statusText == "▶ 1/2 0:03 / 0:30 — no audio device; LECTERN_AUDIO_OUTPUT=null to follow the text silently")
    }

    /// The real engine on the null output, asked for on purpose: no notice.
    @Test func theNullOutputAskedForIsNoNews() async throws {
        let publication = try await openPublication(Fixtures.sample("audiobook/derived-w3c-mol-navigation.audiobook"))
        defer { publication.close() }
        let player = try AudiobookPlayer(publication: publication, output: .null)
        defer { player.close() }
        player.play()
        #expect(await wait { player.time >= 0.5 })
        #expect(player.outputName == "null")
        #expect(player.notice == nil)
    }
}
