import Foundation
import Testing
import TestSupport

/// `lectern doctor` lists the clipboard paths it found: what a report of "copy did nothing"
/// needs first.
@Suite struct DoctorClipboardTests {
    let lectern = LecternProcess()

    /// A directory holding executable stand-ins named `tools`.
    func fakeTools(_ tools: [String]) throws -> String {
        let directory = lectern.home + "/bin"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for tool in tools {
            try "#!/bin/sh\ncat > /dev/null\n".write(toFile: directory + "/" + tool, atomically: true, encoding: .utf8)
            chmod(directory + "/" + tool, 0o755)
        }
        return directory
    }

    @Test func listsTheClipboardPathsFoundInPath() throws {
        let bin = try fakeTools(["xclip", "tmux"])
        // Only the stand-ins: no wl-copy or xsel of the machine is found.
        let result = try lectern.run(["doctor", "--json"], environment: [
            "PATH": bin, "DISPLAY": ":99", "WAYLAND_DISPLAY": "", "TMUX": "/tmp/tmux-0/default,1,0",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(result.json as? [String: [String: String]], "\(result.stdout)")
        let clipboard = try #require(report["clipboard"], "\(result.stdout)")
        #expect(clipboard["xclip"] == bin + "/xclip (DISPLAY set)")
        #expect(clipboard["tmux"] == bin + "/tmux (inside tmux: paste buffer)")
        #expect(clipboard["wl-copy"] == "not found")
        #expect(clipboard["xsel"] == "not found")
        #expect(clipboard["copies go to"] == "the terminal (OSC 52), tmux's paste buffer, xclip")
    }

    @Test func saysWhenOnlyTheTerminalGetsTheText() throws {
        let bin = try fakeTools(["xsel"])
        let result = try lectern.run(["doctor"], environment: ["PATH": bin, "DISPLAY": "", "WAYLAND_DISPLAY": "", "TMUX": ""])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Clipboard\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  xsel: \(bin)/xsel (unused: DISPLAY not set)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  tmux: not inside tmux\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  copies go to: the terminal (OSC 52)\n"), "\(result.stdout)")
    }
}
