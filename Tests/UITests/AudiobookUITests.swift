import Foundation
import Testing
import TestSupport

/// An audiobook in the reader: its tracks with durations and its table of contents, and
/// listening through libmpv to the null output (`LECTERN_AUDIO_OUTPUT=null`, real time, no
/// sound device): play, seeks, chapters, tracks, speed, the page following the track, and the
/// position coming back on reopening.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct AudiobookUITests {
    static let book = UIFixtures.sample("derived-w3c-mol-navigation.audiobook")
    static let silent = ["LECTERN_AUDIO_OUTPUT": "null"]

    /// The playing position of the status line (`▶ 1/2 0:12 / 0:29 …`): track and seconds.
    static func position(_ screen: String) -> (track: Int, seconds: Int)? {
        guard let status = screen.split(separator: "\n").last else { return nil }
        let words = status.split(separator: " ")
        guard let mark = words.firstIndex(where: { ["▶", "❚❚", "■"].contains($0) }), mark + 2 < words.count else { return nil }
        let track = words[mark + 1].split(separator: "/").first.flatMap { Int($0) }
        let clock = words[mark + 2].split(separator: ":").compactMap { Int($0) }
        guard let track, clock.count == 2 else { return nil }
        return (track, clock[0] * 60 + clock[1])
    }

    @Test func showsTracksWithDurationsAndContents() throws {
        let tmux = try TmuxSession(width: 80, height: 30, arguments: ["open", Self.book], home: try UIFixtures.home(),
                                   environment: Self.silent)
        defer { tmux.close() }
        try tmux.waitForAll("Tracks", "1. Chapter 1 — 0:29", "2. Chapter 2 — 0:07", "Chapter 1, paragraph 2")
        // Without playback, ] pages to the next track.
        try tmux.press("]")
        try tmux.waitFor("Audio track 2 of 2")
    }

    @Test func playsSeeksAndComesBackToThePosition() throws {
        let home = try UIFixtures.home()
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.book], home: home, environment: Self.silent)
        defer { tmux.close() }
        try tmux.waitFor("Tracks")
        try tmux.press("a")
        // The position moves on its own while playing.
        let playing = try tmux.waitUntil("playing past 0:01") { (Self.position($0)?.seconds ?? 0) >= 1 && $0.contains("▶ 1/2") }
        let before = try #require(Self.position(playing))
        // 15 s forward: the position jumps, into the chapter of the contents that starts there.
        try tmux.press(".")
        // The page follows the position after it is drawn: both are waited for.
        let after = try tmux.waitUntil("15 s further, on the page of “Chapter 1, filler text”") { screen in
            (Self.position(screen)?.seconds ?? 0) >= before.seconds + 14 && screen.contains("Chapter 1, filler text")
        }
        #expect(Self.position(after)?.track == 1)
        #expect(after.contains("Chapter 1, filler text"))
        // Back 15 s, then faster.
        try tmux.press(",")
        try tmux.waitUntil("15 s back") { (Self.position($0)?.seconds ?? 99) < before.seconds + 10 }
        try tmux.press("+")
        try tmux.waitFor("1.25×")
        // The next track: the page follows it.
        try tmux.press("]")
        try tmux.waitUntil("track 2 playing, its page shown") { $0.contains("▶ 2/2") && $0.contains("Audio track 2 of 2") }
        try tmux.press("a")
        let paused = try tmux.waitFor("❚❚ 2/2")
        let saved = try #require(Self.position(paused))
        try tmux.press("q")
        try tmux.waitForExit()
        tmux.close()

        // Reopened: on the page of track 2; playing resumes where it was paused.
        let again = try TmuxSession(width: 80, height: 24, arguments: ["open", Self.book], home: home, environment: Self.silent)
        defer { again.close() }
        let page = try again.waitUntil("the page of track 2 under the title of chapter 2") { screen in
            screen.contains("Audio track 2 of 2") && screen.split(separator: "\n").first?.contains("Chapter 2") == true
        }
        #expect(page.split(separator: "\n").first?.contains("Chapter 2") ?? false)
        try again.press("a")
        let resumed = try again.waitUntil("track 2 resumed") { $0.contains("2/2") && Self.position($0) != nil }
        #expect((Self.position(resumed)?.seconds ?? -1) >= saved.seconds)
    }
}
