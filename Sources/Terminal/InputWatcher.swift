import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Waits for keyboard input on a thread of its own, so that the main actor never blocks in
/// ncurses: when standard input becomes readable (or every `interval` milliseconds, so that
/// a pending `KEY_RESIZE` is noticed), it calls `onReady`, then waits until the main actor,
/// having read every waiting key, calls ``acknowledge()``.
public final class InputWatcher: Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private let interval: Int32

    public init(interval: Int32 = 100) {
        self.interval = interval
    }

    /// Starts watching standard input (the thread lives as long as the process, or until the
    /// terminal hangs up: then it calls `onHangUp` once and stops, rather than spinning on a
    /// terminal that is always "readable" and never has a key).
    public func start(onReady: @escaping @Sendable () -> Void, onHangUp: @escaping @Sendable () -> Void = {}) {
        let semaphore = ready
        let interval = interval
        // A thread of its own: blocking in poll on the cooperative pool would starve tasks.
        DetachedThread.detach {
            while true {
                var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
                let result = poll(&descriptor, 1, interval)
                // The terminal is gone (its window closed, the connection dropped) even when no
                // SIGHUP reaches the reader (a session leader that ignores it).
                if result > 0, descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
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
