import Foundation

/// Runs a short-lived program with `posix_spawn` and a blocking `waitpid`.
///
/// Foundation's `Process` is not used here: its exit detection (a SIGCHLD source) missed the
/// exit of tmux clients started from parallel tests, leaving them unreaped and the test
/// waiting forever. The child gets an empty signal mask (the test runner blocks SIGTERM and
/// SIGHUP, which tmux and lectern would otherwise inherit).
enum Spawn {
    struct Result {
        let status: Int32
        let output: Data
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `arguments` in the background (streams on /dev/null) and returns its process id:
    /// stop it with ``stop(_:)``.
    static func start(_ arguments: [String]) throws -> pid_t {
        try launch(arguments, captureOutput: false).pid
    }

    /// Ends a process started with ``start(_:)`` and reaps it.
    static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

    /// Runs `arguments` (the program looked up in `PATH`) with standard input and error on
    /// /dev/null, and standard output captured or on /dev/null.
    static func run(_ arguments: [String], captureOutput: Bool) throws -> Result {
        let (pid, pipe) = try launch(arguments, captureOutput: captureOutput)
        var output = Data()
        if let pipe {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(pipe, &buffer, buffer.count)
                if count > 0 { output.append(contentsOf: buffer[0..<count]); continue }
                if count < 0, errno == EINTR { continue }
                break
            }
            close(pipe)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(status: exitStatus, output: output)
    }

    private static func launch(_ arguments: [String], captureOutput: Bool) throws -> (pid: pid_t, pipe: Int32?) {
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        var pipeEnds: [Int32] = [-1, -1]
        if captureOutput {
            guard pipe(&pipeEnds) == 0 else { throw Failure(description: "pipe failed") }
            posix_spawn_file_actions_adddup2(&fileActions, pipeEnds[1], 1)
            posix_spawn_file_actions_addclose(&fileActions, pipeEnds[0])
            posix_spawn_file_actions_addclose(&fileActions, pipeEnds[1])
        } else {
            posix_spawn_file_actions_addopen(&fileActions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&fileActions, 2, "/dev/null", O_WRONLY, 0)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGHUP, SIGINT, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, arguments[0], &fileActions, &attributes, argv, environ)
        if captureOutput { close(pipeEnds[1]) }
        guard spawned == 0 else {
            if captureOutput { close(pipeEnds[0]) }
            throw Failure(description: "cannot run \(arguments[0]): error \(spawned)")
        }
        return (pid, captureOutput ? pipeEnds[0] : nil)
    }
}
