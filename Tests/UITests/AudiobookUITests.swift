import Foundation
import Testing
import TestSupport

/// An audiobook in the reader: its tracks with durations and its table of contents; the play
/// key says when no playback engine is plugged in.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct AudiobookUITests {
    @Test func showsTracksWithDurationsAndContents() throws {
        let tmux = try TmuxSession(width: 80, height: 30, arguments: ["open", UIFixtures.sample("derived-w3c-mol-navigation.audiobook")],
                                   home: try UIFixtures.home())
        defer { tmux.close() }
        let screen = try tmux.waitFor("Tracks")
        #expect(screen.contains("1. Chapter 1 — 0:29"))
        #expect(screen.contains("2. Chapter 2 — 0:07"))
        #expect(screen.contains("Chapter 1, paragraph 2"))
        try tmux.press("a")
        try tmux.waitFor("Audio playback is not available")
        try tmux.press("]")
        try tmux.waitFor("Audio track 2 of 2")
    }
}
