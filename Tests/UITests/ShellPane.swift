import Foundation
import TestSupport

/// A tmux pane running another program than lectern itself (a shell with job control, a
/// wrapper that records how lectern ended), with the environment ``TmuxSession`` gives lectern:
/// the session starts on the bookshelf of `home`, and its pane is then respawned with `command`.
enum ShellPane {
    static func session(home: String, width: Int = 80, height: Int = 24, running command: [String]) throws -> TmuxSession {
        let tmux = try TmuxSession(width: width, height: height, arguments: [], home: home)
        let variables = ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config",
                         "XDG_CACHE_HOME": home + "/cache", "TERM": "xterm-256color", "LANG": "C.UTF-8"]
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\(TmuxSession.quoted($0.value))" }
        let line = (["env", "-u", "NO_COLOR", "-u", "TMUX"] + assignments + command.map(TmuxSession.quoted)).joined(separator: " ")
        // -k: the bookshelf started with the session is ended first.
        try tmux.tmux(["respawn-pane", "-k", "-t", tmux.session, line])
        return tmux
    }

    /// The process of the pane (the shell, the wrapper).
    static func panePID(_ tmux: TmuxSession) throws -> pid_t {
        let text = try tmux.tmux(["display-message", "-p", "-t", tmux.session, "#{pane_pid}"])
        guard let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0 else {
            throw TmuxSession.Failure(description: "no pane pid in “\(text)”")
        }
        return pid
    }
}
