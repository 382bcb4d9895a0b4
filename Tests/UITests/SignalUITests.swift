import Foundation
import Testing
import TestSupport

/// The place survives the terminal going away: a page turned inside a chapter is saved a
/// moment later, and SIGHUP (a closed window, a killed tmux session, a dropped SSH connection),
/// SIGTERM, SIGINT and SIGQUIT save it before the program ends, with the terminal restored.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct SignalUITests {
    static let wasteland = ReaderScreenTests.wasteland

    /// Opens the Waste Land and pages to page 5 of its one long chapter (no chapter change, no
    /// jump: only a page turn), in a new home; lectern runs under a wrapper that writes how it
    /// ended to `home/ended` ("exit N", or "signal N" when a signal killed it).
    static func readToPageFive() throws -> (TmuxSession, home: String) {
        let home = try UIFixtures.home()
        let wrapper = """
            import os, signal, sys
            pid = os.fork()
            if pid == 0:
                os.execv(sys.argv[2], sys.argv[2:])
            # The terminal hanging up must end lectern, not its watcher.
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            _, status = os.waitpid(pid, 0)
            with open(sys.argv[1], "w") as file:
                file.write(f"exit {os.WEXITSTATUS(status)}" if os.WIFEXITED(status) else f"signal {os.WTERMSIG(status)}")
            """
        let tmux = try ShellPane.session(home: home, running: ["python3", "-c", wrapper, home + "/ended",
                                                               LecternProcess.executable, "open", wasteland])
        try tmux.waitForAll("April is the cruellest month", "p. 1/")
        try tmux.press("4", "Space")
        try tmux.waitFor("p. 5/")
        return (tmux, home)
    }

    /// The lectern process: the wrapper's child.
    static func lecternPID(_ tmux: TmuxSession) throws -> pid_t {
        let pane = try ShellPane.panePID(tmux)
        let children = (try? String(contentsOfFile: "/proc/\(pane)/task/\(pane)/children", encoding: .utf8)) ?? ""
        guard let pid = children.split(separator: " ").first.flatMap({ pid_t($0) }) else {
            throw TmuxSession.Failure(description: "the pane's process \(pane) has no child")
        }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
        guard executable.hasSuffix("/lectern") else { throw TmuxSession.Failure(description: "process \(pid) is \(executable)") }
        return pid
    }

    /// How lectern ended, as the wrapper wrote it.
    static func ending(home: String, timeout: TimeInterval = 20) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let text = try? String(contentsOfFile: home + "/ended", encoding: .utf8), !text.isEmpty { return text }
            if Date() > deadline { throw TmuxSession.Failure(description: "lectern did not end") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// A tmux format of the pane.
    static func paneFormat(_ tmux: TmuxSession, _ format: String) throws -> String {
        try tmux.tmux(["display-message", "-p", "-t", tmux.session, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Opens the book again in a new session of `home`: it must come back at page 5.
    static func expectReopenedAtPageFive(home: String) throws {
        let tmux = try TmuxSession(width: 80, height: 24, arguments: ["open", wasteland], home: home)
        defer { tmux.close() }
        let screen = try tmux.waitUntil("the book reopened at a page") { ReaderScreenTests.page($0) != nil }
        #expect(ReaderScreenTests.page(screen) == 5, "reopened at page \(ReaderScreenTests.page(screen) ?? 0), not 5:\n\(screen)")
    }

    @Test(arguments: [SIGHUP, SIGTERM, SIGINT, SIGQUIT])
    func aSignalSavesThePlaceAndRestoresTheTerminal(signal: Int32) throws {
        let (tmux, home) = try Self.readToPageFive()
        do {
            defer { tmux.close() }
            // At once, before the page turn's own save is due.
            kill(try Self.lecternPID(tmux), signal)
            // Ended by itself, with the status a shell gives a process ended by that signal.
            #expect(try Self.ending(home: home) == "exit \(128 + signal)")
            // The full-screen mode was left (the alternate screen, where the page was drawn).
            #expect(try Self.paneFormat(tmux, "#{alternate_on}") == "0")
        }
        try Self.expectReopenedAtPageFive(home: home)
    }

    /// Killing the tmux session hangs the terminal up under the reader.
    @Test func killingTheTmuxSessionSavesThePlace() throws {
        let (tmux, home) = try Self.readToPageFive()
        try tmux.tmux(["kill-session", "-t", tmux.session])
        #expect(try Self.ending(home: home) == "exit \(128 + SIGHUP)")
        tmux.close()
        try Self.expectReopenedAtPageFive(home: home)
    }

    /// A page turn is saved a moment later by itself: even a reader killed outright (no
    /// signal to catch) reopens at that page.
    @Test func aPageTurnIsSavedWithoutClosing() throws {
        let (tmux, home) = try Self.readToPageFive()
        do {
            defer { tmux.close() }
            try Self.waitForSavedProgression(home: home) { $0 > 0 }
            kill(try Self.lecternPID(tmux), SIGKILL)
            #expect(try Self.ending(home: home) == "signal \(SIGKILL)")
        }
        try Self.expectReopenedAtPageFive(home: home)
    }

    /// Polls the progression of the saved place (in the chapter) until `predicate` holds.
    static func waitForSavedProgression(home: String, timeout: TimeInterval = 20, _ predicate: (Double) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while true {
            let output = try Command.python("""
                import json, sqlite3, sys
                db = sqlite3.connect(sys.argv[1])
                row = db.execute("SELECT locator FROM shelf_publications").fetchone()
                print(json.loads(row[0]).get("locations", {}).get("progression", -1) if row and row[0] else -1)
                """, [home + "/data/lectern/library.sqlite"])
            last = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if let value = Double(last), predicate(value) { return }
            if Date() > deadline { throw TmuxSession.Failure(description: "the saved progression stayed \(last)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
}
