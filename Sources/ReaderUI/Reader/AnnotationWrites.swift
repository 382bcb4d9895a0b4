import Dispatch
import Synchronization

/// The library writes of highlights and notes, one after another in the order they were made,
/// and outliving the book that made them.
///
/// In order: a highlight and the note typed on it a moment later are two writes of the same
/// annotation; were they concurrent, the highlight's write (waiting for a new book's library
/// entry) could land after the note's and store the annotation without its note. Outliving the
/// book: closing it cancels the book's tasks, and quitting ends the process; a note the status
/// line called saved must be in the library by then, so quitting waits for the writes
/// (``waitUntilWritten(timeout:)``).
final class AnnotationWrites: Sendable {
    private let tail = Mutex<Task<Void, Never>?>(nil)
    private let pending = Mutex(0)

    init() {}

    /// Queues `write` after every write queued before it; the returned task ends when it did,
    /// with what it returned.
    @discardableResult
    func enqueue<Outcome: Sendable>(_ write: @escaping @Sendable () async -> Outcome) -> Task<Outcome, Never> {
        pending.withLock { $0 += 1 }
        return tail.withLock { tail in
            let previous = tail
            // Detached: neither the main actor (which waits for it on quitting) nor the
            // book's cancellation is needed to finish it.
            let task = Task.detached { [self] () -> Outcome in
                await previous?.value
                let outcome = await write()
                pending.withLock { $0 -= 1 }
                return outcome
            }
            tail = Task.detached { _ = await task.value }
            return task
        }
    }

    /// The writes queued and not finished.
    var count: Int { pending.withLock { $0 } }

    /// Blocks the calling thread until every write queued so far has finished, or `timeout`
    /// passed; whether they all did. The writes never need the caller's thread (they are
    /// detached), so the main thread may wait here as the program ends.
    func waitUntilWritten(timeout: Duration) -> Bool {
        guard let last = tail.withLock({ $0 }) else { return true }
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await last.value
            done.signal()
        }
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        return done.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
    }
}
