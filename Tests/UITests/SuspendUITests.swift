import Foundation
import Testing
import TestSupport

/// Ctrl-Z suspends the reader as a shell's job control expects (raw mode makes it a key, not
/// a signal), and so does SIGTSTP from outside: the shell's prompt comes back, `fg` brings the
/// page back unchanged, and the letters of `fg` are the shell's, not commands of the book.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct SuspendUITests {
    static let prompt = "shell-ready> "

    /// An interactive shell (with job control) in the pane, running lectern on the Waste Land
    /// at page 5.
    static func readingInAShell() throws -> TmuxSession {
        let home = try UIFixtures.home()
        let tmux = try ShellPane.session(home: home, running: ["env", "PS1=" + prompt, "bash", "--norc", "--noprofile", "-i"])
        try tmux.waitFor(prompt.trimmingCharacters(in: .whitespaces))
        try tmux.type([LecternProcess.executable, "open", ReaderScreenTests.wasteland].map(TmuxSession.quoted).joined(separator: " "))
        try tmux.press("Enter")
        try tmux.waitForAll("April is the cruellest month", "p. 1/")
        try tmux.press("4", "Space")
        try tmux.waitFor("p. 5/")
        return tmux
    }

    /// Whether the pane shows the alternate screen (lectern's full-screen mode).
    static func fullScreen(_ tmux: TmuxSession) throws -> Bool {
        try tmux.tmux(["display-message", "-p", "-t", tmux.session, "#{alternate_on}"]).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// Suspended: the shell says the job stopped and prompts again, lectern's screen left.
    static func expectSuspended(_ tmux: TmuxSession) throws {
        try tmux.waitUntil("the job stopped and the prompt") { screen in
            let last = screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            return screen.contains("Stopped") && last.map { $0.trimmingCharacters(in: .whitespaces) } == prompt.trimmingCharacters(in: .whitespaces)
        }
        #expect(try !fullScreen(tmux))
    }

    /// Back with `fg`: the same page, nothing of `f`, `g` or Enter acted on.
    static func expectResumed(_ tmux: TmuxSession, page: String) throws {
        try tmux.type("fg")
        try tmux.press("Enter")
        let screen = try tmux.waitForAll(page, "p. 5/")
        #expect(try fullScreen(tmux))
        #expect(!screen.contains("Stopped"))
        #expect(!screen.contains(prompt.trimmingCharacters(in: .whitespaces)))
        // Still a reader that takes keys: the next page.
        try tmux.press("Space")
        try tmux.waitFor("p. 6/")
        try tmux.press("b")
        try tmux.waitFor("p. 5/")
    }

    /// The first text row of the page shown.
    static func firstLine(_ screen: String) -> String {
        screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty } ?? ""
    }

    @Test func controlZSuspendsAndFgResumes() throws {
        let tmux = try Self.readingInAShell()
        defer { tmux.close() }
        let line = Self.firstLine(try tmux.screen())
        try tmux.press("C-z")
        try Self.expectSuspended(tmux)
        try Self.expectResumed(tmux, page: line)
        try tmux.press("q")
        try tmux.waitUntil("the prompt after quitting") { $0.contains(Self.prompt.trimmingCharacters(in: .whitespaces)) && !$0.contains("p. 5/") }
    }

    @Test func sigtstpFromOutsideSuspendsToo() throws {
        let tmux = try Self.readingInAShell()
        defer { tmux.close() }
        let line = Self.firstLine(try tmux.screen())
        let shell = try ShellPane.panePID(tmux)
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        let lectern = try #require(children.split(separator: " ").first.flatMap { pid_t($0) })
        kill(lectern, SIGTSTP)
        try Self.expectSuspended(tmux)
        try Self.expectResumed(tmux, page: line)
    }
}
