import Foundation
import Testing
import TestSupport

/// Copy inside tmux with its default `set-clipboard external`, which drops the OSC 52 that
/// applications send: the text must reach tmux's paste buffer (and the desktop clipboard
/// tool), the status line must say where it went, and the LCP allowance is consumed once.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct TmuxClipboardUITests {
    /// A stand-in `xclip` that keeps what it is given on standard input, and its arguments.
    static func fakeXclip(in directory: String) throws -> (received: String, arguments: String) {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let received = directory + "/xclip-received", arguments = directory + "/xclip-arguments"
        let script = directory + "/xclip"
        try """
            #!/bin/sh
            printf '%s\\n' "$*" > '\(arguments)'
            cat > '\(received)'
            """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        return (received, arguments)
    }

    @Test func copyInsideTmuxReachesThePasteBufferAndTheDesktopClipboardOnce() throws {
        let home = try UIFixtures.home()
        // Also remembers the passphrase, so the book opens without asking.
        #expect(try CopyPrintUITests.rightsLeft(home: home).characters == 2048)
        let bin = home + "/bin"
        let xclip = try Self.fakeXclip(in: bin)
        let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let tmux = try TmuxSession(width: 120, height: 24, arguments: ["open", CopyPrintUITests.lcp], home: home,
                                   environment: ["PATH": path, "DISPLAY": ":99"], insideTmux: true)
        defer { tmux.close() }
        // tmux's default: applications' OSC 52 is ignored.
        try tmux.tmux(["set-option", "-s", "set-clipboard", "external"])
        try tmux.waitUntil("the first page") { $0.contains("The Waste Land") && $0.contains("p. 1/") }
        try tmux.press("v", "w")
        try tmux.waitFor("SELECT 3 characters")
        try tmux.press("y")
        try tmux.waitFor("Copied 3 characters to tmux's paste buffer and xclip, 2045 characters left.")
        #expect(try tmux.clipboard() == "The")
        #expect(try String(contentsOfFile: xclip.received, encoding: .utf8) == "The")
        // The text went on standard input, not on the command line.
        #expect(try String(contentsOfFile: xclip.arguments, encoding: .utf8) == "-selection clipboard\n")
        // Two paths took the text; the allowance counted it once.
        #expect(try CopyPrintUITests.rightsLeft(home: home).characters == 2045)
    }

    /// A tmux that refuses the text (here: not reachable through `$TMUX`) is named on the
    /// status line, and the copy still counts once.
    @Test func aPasteBufferThatRefusesIsNamed() throws {
        let home = try UIFixtures.home()
        #expect(try CopyPrintUITests.rightsLeft(home: home).characters == 2048)
        let tmux = try TmuxSession(width: 120, height: 24, arguments: ["open", CopyPrintUITests.lcp], home: home,
                                   environment: ["TMUX": home + "/no-such-socket,1,0"])
        defer { tmux.close() }
        try tmux.waitUntil("the first page") { $0.contains("The Waste Land") && $0.contains("p. 1/") }
        try tmux.press("v", "w", "y")
        try tmux.waitFor("Copied 3 characters, 2045 characters left; tmux's paste buffer refused it.")
        #expect(try CopyPrintUITests.rightsLeft(home: home).characters == 2045)
    }
}
