import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Runs the few external programs the reader hands data to (`lp`, `wl-copy`, `xclip`,
/// `qpdf`), found in `PATH`. Blocking: call from a background task, never the main actor.
public enum ExternalCommand {
    /// The full path of `name` in `PATH`, or nil when it is not installed.
    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = directory + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `arguments` with `input` on standard input and its output and errors discarded;
    /// returns the exit status (nil when it could not be started).
    @discardableResult
    static func run(_ arguments: [String], input: [UInt8] = []) -> Int32? {
        guard let executable = arguments.first.flatMap({ $0.hasPrefix("/") ? $0 : find($0) }) else { return nil }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        // The terminal belongs to the interface: the program must not write on it.
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        var status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        // A program just written may still be open in a process forking elsewhere.
        for _ in 0..<20 where status == ETXTBSY {
            usleep(50_000)
            status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        }
        close(ends[0])
        guard status == 0 else { close(ends[1]); return nil }
        var remaining = input[...]
        while !remaining.isEmpty {
            let written = remaining.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
            if written < 0 { if errno == EINTR { continue }; break }
            remaining = remaining.dropFirst(written)
        }
        close(ends[1])
        var result: Int32 = 0
        while waitpid(pid, &result, 0) < 0 { if errno != EINTR { return nil } }
        return (result & 0x7F) == 0 ? (result >> 8) & 0xFF : 128 + (result & 0x7F)
    }
}

/// The desktop clipboard beside OSC 52: `wl-copy` under Wayland, `xclip` under X11, when
/// installed (a terminal that ignores OSC 52 still gets the text).
enum DesktopClipboard {
    /// Copies `text` with the tool of the session; returns the tool's name when one took it.
    static func copy(_ text: String) -> String? {
        let environment = ProcessInfo.processInfo.environment
        if environment["WAYLAND_DISPLAY"] != nil, ExternalCommand.run(["wl-copy"], input: Array(text.utf8)) == 0 {
            return "wl-copy"
        }
        if environment["DISPLAY"] != nil, ExternalCommand.run(["xclip", "-selection", "clipboard"], input: Array(text.utf8)) == 0 {
            return "xclip"
        }
        return nil
    }
}
