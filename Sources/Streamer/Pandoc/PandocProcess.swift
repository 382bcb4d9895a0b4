import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Runs `pandoc` (found in `PATH`, started directly, never through a shell) on one file and
/// collects the HTML it writes on standard output in memory. Bounded: at most ``maxOutput``
/// bytes and ``timeout`` seconds, else it is killed. Blocking: the parsers run off the main
/// actor, inside the opener's task.
enum PandocProcess {
    /// The most HTML kept from one conversion.
    static let maxOutput = 64 << 20
    /// The longest a conversion may take.
    static let timeout: Double = 120
    /// The end of pandoc's error output kept for a message.
    static let maxErrorOutput = 4096

    enum Failure: Error, Sendable {
        /// No executable `pandoc` in `PATH`.
        case notInstalled
        case couldNotStart(errno: Int32)
        /// pandoc exited with `status`; `message` is the end of its error output.
        case failed(status: Int32, message: String)
        case tooLarge
        case timedOut
    }

    /// The full path of `pandoc` in `PATH`, or nil.
    static func executable(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        for directory in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where !directory.isEmpty {
            let candidate = String(directory) + "/pandoc"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `pandoc arguments…` with standard input closed; returns its standard output.
    static func run(_ arguments: [String]) throws(Failure) -> [UInt8] {
        guard let executable = executable() else { throw .notInstalled }
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard pipe(&output) == 0 else { throw .couldNotStart(errno: errno) }
        guard pipe(&errors) == 0 else {
            close(output[0]); close(output[1])
            throw .couldNotStart(errno: errno)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        for descriptor in output + errors { posix_spawn_file_actions_addclose(&actions, descriptor) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(output[1])
        close(errors[1])
        defer { close(output[0]); close(errors[0]) }
        guard status == 0 else { throw .couldNotStart(errno: status) }

        var html: [UInt8] = [], stderr: [UInt8] = []
        let outcome = collect(output: output[0], errors: errors[0], into: &html, &stderr)
        if outcome != nil { kill(pid, SIGKILL) }
        var result: Int32 = 0
        while waitpid(pid, &result, 0) < 0 && errno == EINTR {}
        if let outcome { throw outcome }
        let exit = (result & 0x7F) == 0 ? (result >> 8) & 0xFF : 128 + (result & 0x7F)
        guard exit == 0 else { throw .failed(status: exit, message: String(decoding: stderr, as: UTF8.self)) }
        return html
    }

    /// Reads both pipes until pandoc closes them; a failure when it writes too much or takes
    /// too long (nil when it finished in bounds).
    private static func collect(output: Int32, errors: Int32, into html: inout [UInt8], _ stderr: inout [UInt8]) -> Failure? {
        let deadline = monotonicSeconds() + timeout
        var open = [output, errors]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            let left = deadline - monotonicSeconds()
            guard left > 0 else { return .timedOut }
            var entries = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&entries, nfds_t(entries.count), Int32(min(left * 1000, 1000)) + 1)
            if ready < 0 && errno != EINTR { return .timedOut }
            for entry in entries where entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 {
                    open.removeAll { $0 == entry.fd }
                } else if entry.fd == output {
                    html += buffer[..<count]
                    if html.count > maxOutput { return .tooLarge }
                } else {
                    stderr += buffer[..<count]
                    if stderr.count > maxErrorOutput { stderr.removeFirst(stderr.count - maxErrorOutput) }
                }
            }
        }
        return nil
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
