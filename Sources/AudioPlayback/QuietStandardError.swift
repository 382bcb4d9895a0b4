import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Keeps what the audio libraries print on standard error off a terminal the reader draws on.
///
/// libmpv's own messages obey `terminal=no` and come as log events, but the libraries below
/// it do not: PipeWire (`[E] pw.conf | can't load config client.conf`) and ALSA (`ALSA lib
/// confmisc.c: cannot find card '0'`) write straight to file descriptor 2, from mpv's threads,
/// whenever an audio output is tried — over the reader's screen, on a machine without sound.
/// While a token lives and descriptor 2 is a terminal, it points at `/dev/null`; the last
/// token to go puts the terminal back. Standard error redirected elsewhere (`2>log`, with
/// `LECTERN_LOG`) is left alone: the messages go to that log.
final class QuietStandardError: Sendable {
    private struct State {
        var holders = 0
        /// A duplicate of the original descriptor 2, while it is replaced.
        var saved: Int32 = -1
    }

    private static let state = Mutex(State())

    init() {
        Self.state.withLock { state in
            state.holders += 1
            guard state.holders == 1, isatty(2) == 1 else { return }
            let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
            guard null >= 0 else { return }
            defer { close(null) }
            let saved = fcntl(2, F_DUPFD_CLOEXEC, 3)
            guard saved >= 0 else { return }
            if dup2(null, 2) < 0 {
                close(saved)
                return
            }
            state.saved = saved
        }
    }

    deinit {
        Self.state.withLock { state in
            state.holders -= 1
            guard state.holders == 0, state.saved >= 0 else { return }
            _ = dup2(state.saved, 2)
            close(state.saved)
            state.saved = -1
        }
    }

    /// Whether descriptor 2 is being kept off the terminal now (for tests).
    static var isActive: Bool { state.withLock { $0.saved >= 0 } }
}
