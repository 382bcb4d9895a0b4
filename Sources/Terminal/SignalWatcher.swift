#if canImport(Glibc)
import Glibc
#endif

/// The write end of the self-pipe the signal handler writes to: set once, before any handler
/// is installed, and only read afterwards (from the handler, which may run on any thread).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The handlers that were installed before ours, by signal number, called first by ours
/// (ncurses' SIGWINCH handler, which makes the next read return `KEY_RESIZE`). Allocated once
/// before any handler is installed; each slot written before its signal is caught.
nonisolated(unsafe) private let chainedHandlers = UnsafeMutablePointer<(@convention(c) (Int32) -> Void)?>.allocate(capacity: 65)

/// The signal handler: the handler it replaced, if any, then one byte, the signal's number,
/// down the self-pipe. Only async-signal-safe calls; `errno` is put back for the code it
/// interrupted.
private func lecternSignalHandler(_ signal: Int32) {
    let saved = errno
    if signal >= 0, signal < 65, let chained = chainedHandlers[Int(signal)] { chained(signal) }
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}

/// Hands the process's signals to ordinary code: a handler that only writes the signal's
/// number to a pipe (the self-pipe trick), and a thread of its own that reads the pipe and
/// calls `onSignal` there, where anything may be done (hop to the main actor, save, leave
/// curses). Nothing but that `write` runs inside the signal handler, so no lock, allocation or
/// ncurses call can be interrupted halfway by one.
///
/// Handlers, not `SIG_IGN`: a program started by the reader (`xdg-open`, a clipboard tool)
/// gets the default actions back when it starts, and a signal never goes missing while its
/// handler is installed.
public enum SignalWatcher {
    /// The signals that end the program: the terminal closed (SIGHUP), asked to stop
    /// (SIGTERM), interrupted or quit from outside (SIGINT, SIGQUIT: the keys arrive as keys
    /// in raw mode).
    public static let terminating: [Int32] = [SIGHUP, SIGTERM, SIGINT, SIGQUIT]

    /// The window was resized: caught after the screen is set up, so that ncurses' own
    /// handler still runs first (it is chained) and the next read gives `KEY_RESIZE`.
    public static let resize: Int32 = SIGWINCH

    /// Catches `signals` from now on and calls `onSignal` with each one received, in order, on
    /// the watcher's thread. Call once (later calls only add signals to the same watcher).
    public static func start(_ signals: [Int32], onSignal: @escaping @Sendable (Int32) -> Void) {
        if signalPipeWriteEnd < 0 {
            chainedHandlers.initialize(repeating: nil, count: 65)
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { return }
            // Not inherited by the programs the reader starts.
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            // A full pipe (a storm of signals) drops bytes rather than blocking a handler.
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
            signalPipeWriteEnd = ends[1]
            let readEnd = ends[0]
            DetachedThread.detach {
                var byte: UInt8 = 0
                while true {
                    let count = read(readEnd, &byte, 1)
                    if count == 1 { onSignal(Int32(byte)); continue }
                    if count < 0, errno == EINTR { continue }
                    return
                }
            }
        }
        for signal in signals { catchSignal(signal) }
    }

    /// Stops the process as SIGTSTP does by default (the shell's job control takes the
    /// terminal back), returning once it is continued (`fg`, SIGCONT). The caller leaves
    /// full-screen mode first and takes it up again after.
    public static func stopProcess() {
        var defaultAction = sigaction()
        defaultAction.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&defaultAction.sa_mask)
        var previous = sigaction()
        sigaction(SIGTSTP, &defaultAction, &previous)
        // To this thread, which may be a Dispatch thread that blocks it: unblocked for the
        // moment, the stop takes the whole process before `raise` returns (no page is drawn
        // in between, and the handler put back below never sees this signal).
        var stop = sigset_t()
        sigemptyset(&stop)
        sigaddset(&stop, SIGTSTP)
        var mask = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &stop, &mask)
        raise(SIGTSTP)
        pthread_sigmask(SIG_SETMASK, &mask, nil)
        sigaction(SIGTSTP, &previous, nil)
    }

    private static func catchSignal(_ signal: Int32) {
        var current = sigaction()
        sigaction(signal, nil, &current)
        let previous = current.__sigaction_handler.sa_handler
        // For a resize only, a handler of someone else's (ncurses', which makes the next read
        // give KEY_RESIZE): kept, to be called first. Never for the others: ncurses' handlers
        // of SIGTERM, SIGINT and SIGTSTP end or stop the process without saving anything.
        if signal == resize, current.sa_flags & Int32(SA_SIGINFO) == 0, let previous,
           unsafeBitCast(previous, to: Int.self) != unsafeBitCast(SIG_DFL, to: Int.self),
           unsafeBitCast(previous, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self),
           unsafeBitCast(previous, to: Int.self) != unsafeBitCast(lecternSignalHandler as @convention(c) (Int32) -> Void, to: Int.self) {
            chainedHandlers[Int(signal)] = previous
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = lecternSignalHandler
        sigemptyset(&action.sa_mask)
        // Slow system calls elsewhere (a read of a book, a poll) go on rather than failing.
        action.sa_flags = Int32(SA_RESTART)
        sigaction(signal, &action, nil)
    }
}
