import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Runs the few external programs the reader hands data to (`lp`, `tmux`, `wl-copy`, `xclip`,
/// `xsel`, `qpdf`), found in `PATH`. Blocking: call from a background task, never the main actor.
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
    /// returns the exit status (nil when it could not be started, or, with a `timeout` in
    /// seconds, when it was killed for taking longer: a clipboard tool that hangs must not
    /// hold a thread and the message of a copy forever).
    @discardableResult
    static func run(_ arguments: [String], input: [UInt8] = [], timeout: Double? = nil) -> Int32? {
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
        let deadline = timeout.map { monotonicSeconds() + $0 }
        if deadline != nil { _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK) }
        var remaining = input[...]
        while !remaining.isEmpty {
            let written = remaining.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
            if written >= 0 { remaining = remaining.dropFirst(written); continue }
            if errno == EINTR { continue }
            guard errno == EAGAIN, let deadline, waitWritable(ends[1], until: deadline) else { break }
        }
        close(ends[1])
        var result: Int32 = 0
        if let deadline {
            while waitpid(pid, &result, WNOHANG) == 0 {
                guard monotonicSeconds() < deadline else {
                    kill(pid, SIGKILL)
                    while waitpid(pid, &result, 0) < 0 && errno == EINTR {}
                    return nil
                }
                usleep(5_000)
            }
        } else {
            while waitpid(pid, &result, 0) < 0 { if errno != EINTR { return nil } }
        }
        return (result & 0x7F) == 0 ? (result >> 8) & 0xFF : 128 + (result & 0x7F)
    }

    /// Waits until `descriptor` takes more bytes; false once `deadline` passed.
    private static func waitWritable(_ descriptor: Int32, until deadline: Double) -> Bool {
        while true {
            let left = deadline - monotonicSeconds()
            guard left > 0 else { return false }
            var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&entry, 1, Int32(min(left * 1000, 1000)) + 1)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return false }
        }
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
