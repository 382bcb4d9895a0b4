import Dispatch
import Foundation
import Synchronization
import Terminal
import Testing
import TestSupport

/// The counts the signal handler under test and the watcher's callbacks add to.
private let chainedCalls = Atomic<Int>(0)
private let signalsSeen = Mutex<[Int32]>([])

/// Stands for ncurses' SIGWINCH handler: installed before Lectern's, it must still run.
private func previousHandler(_ signal: Int32) {
    chainedCalls.add(1, ordering: .relaxed)
}

/// The main actor is woken by input or a signal, never by a timer while nothing happens
/// (#30 item 5): the input watcher waits without a time limit, and a window resize arrives as
/// SIGWINCH through the signal watcher, whose handler still calls the one it replaced (ncurses'
/// own, which makes the next read return `KEY_RESIZE`).
@Suite(.serialized) struct InputWakeUpTests {
    /// Polls `condition` until it holds (bounded, so a failure ends the test).
    static func eventually(_ condition: () -> Bool) -> Bool {
        (try? StateWait.blocking("a condition") { condition() }) != nil
    }

    @Test func anIdleInputWakesNobody() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[1]) }
        let watcher = InputWatcher(descriptor: ends[0])
        let wakeUps = Atomic<Int>(0)
        watcher.start(onReady: { wakeUps.add(1, ordering: .relaxed) })
        // The old watcher woke every 100 ms; a quarter of a second of nothing is 0 wake-ups now
        // (however slow the machine, a timer could only add wake-ups, never remove them).
        usleep(250_000)
        #expect(wakeUps.load(ordering: .relaxed) == 0)
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(Self.eventually { wakeUps.load(ordering: .relaxed) == 1 })
        // Read and acknowledged: it waits again, and nothing more comes.
        #expect(read(ends[0], &byte, 1) == 1)
        watcher.acknowledge()
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(Self.eventually { wakeUps.load(ordering: .relaxed) == 2 })
        #expect(read(ends[0], &byte, 1) == 1)
        watcher.acknowledge()
    }

    /// SIGWINCH still reaches the handler it replaced (ncurses'); another signal (SIGUSR2 here,
    /// SIGTERM in the reader, whose ncurses handler would end the process unsaved) does not.
    @Test func aCaughtResizeStillReachesTheHandlerItReplaced() throws {
        var previous = sigaction()
        previous.__sigaction_handler.sa_handler = previousHandler
        sigemptyset(&previous.sa_mask)
        #expect(sigaction(SIGUSR2, &previous, nil) == 0)
        #expect(sigaction(SIGWINCH, &previous, nil) == 0)
        SignalWatcher.start([SIGUSR2, SignalWatcher.resize]) { signal in signalsSeen.withLock { $0.append(signal) } }
        // To the process: a test runs on a Dispatch thread, which blocks signals.
        #expect(kill(getpid(), SIGUSR2) == 0)
        #expect(Self.eventually { signalsSeen.withLock { $0.contains(SIGUSR2) } })
        #expect(chainedCalls.load(ordering: .relaxed) == 0, "only a resize is chained")
        #expect(kill(getpid(), SIGWINCH) == 0)
        #expect(Self.eventually { signalsSeen.withLock { $0.contains(SIGWINCH) } })
        #expect(chainedCalls.load(ordering: .relaxed) == 1)
    }
}
