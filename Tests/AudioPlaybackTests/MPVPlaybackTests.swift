import AudioPlayback
import Foundation
import Shared
import Testing
import TestSupport

/// The libmpv engine for real, playing to the null output (real time, no sound device): the
/// position moves, seeks land, tracks follow each other, decoded durations are the files'.
@MainActor @Suite(.serialized) struct MPVPlaybackTests {
    static let zab = Fixtures.sample("audiobook/swifttoolkit-audiotest.zab")

    @Test func playsSeeksAndDecodesTheDurationOfTheTracks() async throws {
        let publication = try await openPublication(Self.zab)
        defer { publication.close() }
        let player = try AudiobookPlayer(publication: publication, output: .null)
        defer { player.close() }
        #expect(player.tracks.map(\.title) == ["gtr-jazz.mp3", "Latin.mp3", "vln-lin-cs.mp3"])
        player.play()
        #expect(await wait { player.decodedDuration(ofTrack: 0) != nil })
        let file = try publication.get(publication.readingOrder[0]).read().get()
        let expected = try #require(constantBitrateDuration(of: file))
        #expect(abs(try #require(player.decodedDuration(ofTrack: 0)) - expected) < 0.05)
        #expect(await wait { player.time > 0.3 }, "the position does not move")
        // mpv names its output in a property event of its own, which a loaded machine delivers later.
        #expect(await wait { player.outputName == "null" }, "output \(player.outputName ?? "none")")
        player.seek(to: 6)
        #expect(await wait { player.time > 6.2 && !player.isLoading }, "no position after the seek: \(player.time)")
        let fragment = try #require(player.locator.locations.fragments.first)
        #expect(try #require(MediaFragment.start(in: fragment)) >= 6)
        #expect(player.error == nil)
    }

    @Test func theNextTrackFollowsTheEndOfOne() async throws {
        let publication = try await openPublication(Self.zab)
        defer { publication.close() }
        let player = try AudiobookPlayer(publication: publication, output: .null)
        defer { player.close() }
        player.go(toTrack: 0, at: 9)
        player.play()
        // Track 1 playing, or already past it: on a loaded machine the checks may come after it
        // ended (CI saw the player at track 2), and its decoded duration stays known.
        #expect(await wait { player.trackIndex >= 1 && player.decodedDuration(ofTrack: 1) != nil && (player.trackIndex > 1 || player.time > 0.2) },
                "still at track \(player.trackIndex) \(player.time)")
        let file = try publication.get(publication.readingOrder[1]).read().get()
        #expect(abs(try #require(player.decodedDuration(ofTrack: 1)) - (constantBitrateDuration(of: file) ?? 0)) < 0.05)
    }

    @Test func aPausedPlayerStaysPutAndARestoredLocatorIsWhereItStarts() async throws {
        let publication = try await openPublication(Fixtures.sample("audiobook/derived-w3c-mol-navigation.audiobook"))
        defer { publication.close() }
        let player = try AudiobookPlayer(publication: publication, output: .null)
        defer { player.close() }
        let locator = try #require(Locator(jsonString: #"{"href":"audio/ch1.mp3","type":"audio/mpeg","locations":{"fragments":["t=7.603"]}}"#))
        #expect(player.go(to: locator))
        player.play()
        #expect(await wait { player.time > 7.8 && !player.isLoading })
        #expect(player.currentChapter?.title == "Chapter 1, filler text")
        player.pause()
        // A second player playing in real time is the clock: while it moves a quarter of a
        // second, a player still playing would move as much. Positions sent before the pause
        // may still be on their way: the paused player has settled once a quarter passes
        // with its position unchanged; it must then stay put for half a second more.
        let clockPublication = try await openPublication(Self.zab)
        defer { clockPublication.close() }
        let clock = try AudiobookPlayer(publication: clockPublication, output: .null)
        defer { clock.close() }
        clock.play()
        #expect(await wait { clock.time > 0.1 && !clock.isLoading })
        func clockMoves(by seconds: Double) async -> Bool {
            let start = clock.time
            return await wait { clock.time > start + seconds }
        }
        var settled = false
        for _ in 0..<20 where !settled {
            let before = player.time
            #expect(await clockMoves(by: 0.25))
            settled = player.time == before
        }
        #expect(settled, "the paused player kept moving: \(player.time)")
        let paused = player.time
        #expect(await clockMoves(by: 0.5))
        clock.pause()
        #expect(abs(player.time - paused) < 0.05, "moved while paused: \(paused) → \(player.time)")
        player.nextChapter()
        player.play()
        #expect(await wait { player.trackIndex == 1 && player.time > 0.2 && !player.isLoading })
        #expect(player.locator.locations.totalProgression ?? 0 > 0.8)
    }

    /// Data that is not audio ends in a clear error, not a crash or a hang.
    @Test func aTrackThatIsNotAudioFailsClearly() async throws {
        let garbage = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) })
        let track = Link(href: "audio/broken.mp3", mediaType: MediaType("audio/mpeg"))
        let publication = Publication(manifest: Manifest(metadata: Metadata(title: .nonlocalized("Broken")), readingOrder: [track]),
                                      fetcher: ProxyFetcher { BytesResource(link: $0, bytes: garbage) })
        let player = try AudiobookPlayer(publication: publication, output: .null)
        defer { player.close() }
        player.play()
        #expect(await wait { player.error != nil || player.hasEnded })
        #expect(!player.isPlaying)
    }

    @Test func aResourceThatCannotBeReadFailsClearly() async throws {
        let track = Link(href: "audio/missing.mp3", mediaType: MediaType("audio/mpeg"))
        let publication = Publication(manifest: Manifest(metadata: Metadata(title: .nonlocalized("Missing")), readingOrder: [track]),
                                      fetcher: EmptyFetcher())
        let player = try AudiobookPlayer(publication: publication, output: .null)
        defer { player.close() }
        player.play()
        #expect(await wait { player.error != nil })
        #expect(!player.isPlaying)
    }

    @Test func aPublicationWithoutAudioIsRefused() async throws {
        let publication = try await openPublication(Fixtures.sample("epub/idpf-wasteland.epub"))
        defer { publication.close() }
        #expect(throws: AudioPlaybackError.noAudio) { try AudiobookPlayer(publication: publication, output: .null) }
    }
}
