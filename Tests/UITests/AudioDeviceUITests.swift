import Foundation
import Testing
import TestSupport

/// An audiobook played on a machine without sound: what PipeWire, PulseAudio and ALSA print
/// on standard error stays off the reader's screen, and the status line says there is no
/// audio device and how to follow the text silently, while the clock runs.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct AudioDeviceUITests {
    /// No sound server or card reachable, whatever the machine has: an empty runtime folder
    /// (no PipeWire or PulseAudio socket), servers named where none listens, and an ALSA
    /// configuration without a single device.
    static func soundless(home: String) throws -> [String: String] {
        let runtime = home + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try "".write(toFile: home + "/asound.conf", atomically: true, encoding: .utf8)
        return ["XDG_RUNTIME_DIR": runtime, "PULSE_SERVER": "unix:" + runtime + "/no-pulse", "PIPEWIRE_REMOTE": runtime + "/no-pipewire",
                "ALSA_CONFIG_PATH": home + "/asound.conf"]
    }

    @Test func noSoundDeviceIsSaidAndTheAudioLibrariesStayOffTheScreen() throws {
        let home = try UIFixtures.home()
        let tmux = try TmuxSession(width: 160, height: 24, arguments: ["open", AudiobookUITests.book], home: home,
                                   environment: try Self.soundless(home: home))
        defer { tmux.close() }
        try tmux.waitFor("Tracks")
        try tmux.press("a")
        let screen = try tmux.waitFor("no audio device; LECTERN_AUDIO_OUTPUT=null to follow the text silently")
        // Playback goes on, to no output: the clock moves.
        let later = try tmux.waitUntil("the clock past 0:01") { (AudiobookUITests.position($0)?.seconds ?? 0) >= 1 }
        for shown in [screen, later] {
            for noise in ["ALSA", "PipeWire", "pw.conf", "pulse", "ao/", "cannot find card"] {
                #expect(!shown.contains(noise), "“\(noise)” on the screen:\n\(shown)")
            }
        }
        // The terminal is the reader's again once the book is closed.
        try tmux.press("q")
        try tmux.waitForExit()
        #expect(!(try tmux.transcript().contains("ALSA")))
    }
}
