import Foundation
import TestSupport

/// The real `lectern` running in a detached tmux session of a fixed size, on a tmux server of
/// its own (`-L`, a unique socket) with a unique session name, so that tests never touch each
/// other's sessions or the person's tmux. Keys are sent with `send-keys`; the screen is read
/// with `capture-pane`. ``close()`` kills the lectern process and that session only.
final class TmuxSession {
    let socket: String
    let session: String
    let home: String
    private(set) var closed = false

    /// Whether tmux is installed (the Makefile installs it with the other test tools).
    static var isAvailable: Bool { ["/usr/bin/tmux", "/usr/local/bin/tmux"].contains { FileManager.default.isExecutableFile(atPath: $0) } }

    /// Starts `lectern arguments…` in a window of `width`×`height` with the XDG directories of
    /// `home`, `TERM=xterm-256color` and extra `environment` (e.g. `NO_COLOR`); `insideTmux`
    /// keeps the `TMUX` variable tmux gives the pane (else removed: lectern believes it is in
    /// a plain terminal).
    init(width: Int, height: Int, arguments: [String], home: String, environment: [String: String] = [:],
         insideTmux: Bool = false) throws {
        self.home = home
        let unique = "\(getpid())-\(UUID().uuidString.prefix(8))"
        socket = "lectern-test-" + unique
        session = "lectern-" + unique
        var variables = ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config",
                         "XDG_CACHE_HOME": home + "/cache", "TERM": "xterm-256color", "LANG": "C.UTF-8"]
        for (key, value) in environment { variables[key] = value }
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quoted($0.value))" }.joined(separator: " ")
        let command = "env -u NO_COLOR \(insideTmux ? "" : "-u TMUX ")\(assignments) \(([LecternProcess.executable] + arguments).map(Self.quoted).joined(separator: " "))"
        try startServer(["new-session", "-d", "-s", session, "-x", String(width), "-y", String(height), command])
        // Keep the pane after lectern exits, so its last words can be read.
        try tmux(["set-option", "-t", session, "remain-on-exit", "on"])
        // Take the clipboard lectern sends (OSC 52) into a tmux buffer, for the copy tests.
        try tmux(["set-option", "-s", "set-clipboard", "on"])
    }

    deinit { close() }

    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs the tmux command that starts this test's server with its standard streams on
    /// /dev/null: the server daemon inherits them, and would hold a pipe open forever.
    private func startServer(_ arguments: [String]) throws {
        let result = try Spawn.run(["tmux", "-L", socket, "-f", "/dev/null"] + arguments, captureOutput: false)
        guard result.status == 0 else {
            throw Failure(description: "tmux new-session exited with \(result.status)")
        }
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let result = try Spawn.run(["tmux", "-L", socket, "-f", "/dev/null"] + arguments, captureOutput: true)
        guard result.status == 0 else {
            throw Failure(description: "tmux \(arguments.first ?? "") exited with \(result.status)")
        }
        return String(decoding: result.output, as: UTF8.self)
    }

    /// Sends tmux key names (`Enter`, `Escape`, `Space`, `C-d`, `j`…), one key each.
    func press(_ keys: String...) throws {
        for key in keys { try tmux(["send-keys", "-t", session, key]) }
    }

    /// Types `text` literally.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", session, "-l", text])
    }

    /// The screen as text (`colors`: with the escape sequences of colours and attributes, and
    /// the trailing blank cells, whose background may be a picture's).
    func screen(colors: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", session] + (colors ? ["-e", "-N"] : []))
    }

    /// Everything the pane printed, scrolled-off lines included, wrapped lines joined: what a
    /// program that exited without a full-screen interface said.
    func transcript() throws -> String {
        try tmux(["capture-pane", "-p", "-J", "-S", "-", "-t", session])
    }

    /// How long a wait lasts before it fails: long, because a state that comes does so at once
    /// on an idle machine, and CI's loaded two cores have held a reply back for tens of seconds.
    static let defaultWait: TimeInterval = 60

    /// Polls the screen (every 20 ms) until `predicate` holds, for at most `timeout` seconds;
    /// returns the screen that satisfied it, or fails with the last screen.
    @discardableResult
    func waitUntil(timeout: TimeInterval = TmuxSession.defaultWait, colors: Bool = false, _ description: String,
                   _ predicate: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while true {
            last = try screen(colors: colors)
            if predicate(last) { return last }
            if Date() > deadline { throw Failure(description: "timed out waiting for \(description); screen:\n\(last)") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Like `waitUntil`, but returns only a screen that two captures in a row agree on: a
    /// capture can catch a page half drawn (its first row new, the rest and the status line
    /// still the old page), so a test that reads more than the row it waited for waits for
    /// the drawing to settle.
    @discardableResult
    func waitUntilSettled(timeout: TimeInterval = TmuxSession.defaultWait, _ description: String,
                          _ predicate: (String) -> Bool) throws -> String {
        var previous: String?
        return try waitUntil(timeout: timeout, description + " (settled)") { screen in
            defer { previous = screen }
            return screen == previous && predicate(screen)
        }
    }

    /// Waits until `text` is on screen.
    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = TmuxSession.defaultWait) throws -> String {
        try waitUntil(timeout: timeout, "“\(text)”") { $0.contains(text) }
    }

    /// Waits until every one of `texts` is on one capture: a capture may hold a screen still
    /// being drawn, so what a test asserts must be what it waited for.
    @discardableResult
    func waitForAll(_ texts: String..., timeout: TimeInterval = TmuxSession.defaultWait) throws -> String {
        try waitUntil(timeout: timeout, texts.map { "“\($0)”" }.joined(separator: ", ")) { screen in texts.allSatisfy(screen.contains) }
    }

    /// Waits until `text` is no longer on screen.
    @discardableResult
    func waitForAbsence(of text: String, timeout: TimeInterval = TmuxSession.defaultWait) throws -> String {
        try waitUntil(timeout: timeout, "“\(text)” to go away") { !$0.contains(text) }
    }

    /// The text of the newest tmux buffer: what lectern last put on the clipboard (OSC 52).
    func clipboard() throws -> String {
        try tmux(["show-buffer"])
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", session, "-x", String(width), "-y", String(height)])
    }

    /// Whether lectern has exited (the pane is dead).
    func hasExited() throws -> Bool {
        try tmux(["display-message", "-p", "-t", session, "#{pane_dead}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// Waits until lectern exits.
    func waitForExit(timeout: TimeInterval = TmuxSession.defaultWait) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !hasExited() {
            if Date() > deadline { throw Failure(description: "lectern did not exit; screen:\n\(try screen())") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// The peak resident memory of the lectern process in the pane so far, in KB (`VmHWM` of
    /// /proc/PID/status: `env` runs lectern in its own place, so the pane's process is lectern).
    func peakResidentKB() throws -> Int {
        let pid = try tmux(["display-message", "-p", "-t", session, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
        guard executable.hasSuffix("/lectern") else { throw Failure(description: "the pane's process \(pid) is \(executable), not lectern") }
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap({ Int($0) })
        else { throw Failure(description: "no VmHWM in /proc/\(pid)/status") }
        return kilobytes
    }

    /// Kills lectern (SIGKILL: children of the test runner inherit blocked SIGTERM/SIGHUP)
    /// and this test's tmux session.
    func close() {
        guard !closed else { return }
        closed = true
        if let pid = try? tmux(["display-message", "-p", "-t", session, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines),
           let number = Int32(pid), number > 0 {
            kill(number, SIGKILL)
        }
        // Only this test's session; its private server exits with its last session.
        _ = try? tmux(["kill-session", "-t", session])
        // The server exits with its last session; its socket file stays behind otherwise.
        let directory = (ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp") + "/tmux-\(getuid())"
        unlink(directory + "/" + socket)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}

/// A library home with the bundled samples imported (`lectern import Samples`).
enum UIFixtures {
    static var samples: String { Fixtures.repositoryRoot + "/Samples" }

    static func sample(_ name: String) -> String { samples + "/" + name }

    /// A fresh home; with `importing` paths added to its library first.
    static func home(importing paths: [String] = []) throws -> String {
        let process = LecternProcess()
        if !paths.isEmpty {
            let result = try process.run(["import"] + paths)
            guard result.stdout.contains("added:") else {
                throw TmuxSession.Failure(description: "import failed: \(result.stderr)")
            }
        }
        return process.home
    }
}
