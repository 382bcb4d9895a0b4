import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Waits for keyboard input on a thread of its own, so that the main actor never blocks in
/// ncurses: when the input becomes readable it calls `onReady`, then waits until the main
/// actor, having read every waiting key, calls ``acknowledge()``. It never wakes anyone
/// while nothing is typed: a window resized is announced by SIGWINCH
/// (``SignalWatcher/resize``), not noticed by polling.
public final class InputWatcher: Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private let descriptor: Int32

    /// Watches `descriptor` (standard input by default).
    public init(descriptor: Int32 = 0) {
        self.descriptor = descriptor
    }

    /// Starts watching the input (the thread lives as long as the process, or until the
    /// terminal hangs up: then it calls `onHangUp` once and stops, rather than spinning on a
    /// terminal that is always "readable" and never has a key).
    public func start(onReady: @escaping @Sendable () -> Void, onHangUp: @escaping @Sendable () -> Void = {}) {
        let semaphore = ready
        let watched = descriptor
        // A thread of its own: blocking in poll on the cooperative pool would starve tasks.
        DetachedThread.detach {
            while true {
                var descriptor = pollfd(fd: watched, events: Int16(POLLIN), revents: 0)
                let result = poll(&descriptor, 1, -1)
                // A signal handled meanwhile: wait again.
                if result < 0 { continue }
                // The terminal is gone (its window closed, the connection dropped) even when no
                // SIGHUP reaches the reader (a session leader that ignores it).
                if descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                    onHangUp()
                    return
                }
                onReady()
                semaphore.wait()
            }
        }
    }

    /// Tells the watcher the waiting input has been read.
    public func acknowledge() {
        ready.signal()
    }
}

/// A detached POSIX thread (FoundationEssentials has no `Thread`).
enum DetachedThread {
    static func detach(_ body: @escaping @Sendable () -> Void) {
        final class Box: Sendable { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { argument in
            let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        pthread_detach(thread)
    }
}
