import Dispatch
import Synchronization

/// Runs blocking work (file reads, SQLite, parsing, decryption, layout) on a Dispatch
/// queue rather than on Swift's cooperative pool, which has one thread per core (two here):
/// a large book or a slow disk then never holds up the tasks that keep the interface alive.
public enum Blocking {
    private static let queue = DispatchQueue(label: "lectern.blocking", qos: .userInitiated, attributes: .concurrent)
    private static let background = DispatchQueue(label: "lectern.background", qos: .utility, attributes: .concurrent)

    /// Runs `body` on a Dispatch thread and returns its result.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }

    /// Runs throwing `body` on a Dispatch thread.
    public static func attempt<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await run { () -> Result<T, E> in
            do throws(E) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Runs async `body` with its nonisolated parts on Dispatch threads (a task executor
    /// preference): for APIs that are async but block inside (opening a publication reads
    /// archives, decrypts, and may wait on a License Status server).
    public static func offPool<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
        await withTaskExecutorPreference(DispatchTaskExecutor.shared) { await body() }
    }

    /// Runs async `body` on Dispatch threads (as ``offPool(_:)``) and blocks the calling
    /// thread until it returns: the bridge for synchronous callers of an async API (a C
    /// library's callback, a command printing a book's words line by line). The task never
    /// needs the cooperative pool, so a cooperative caller cannot starve it; never call it
    /// on the main actor.
    public static func wait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let semaphore = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        Task(executorPreference: DispatchTaskExecutor.shared) {
            let value = await body()
            result.withLock { $0 = value }
            semaphore.signal()
        }
        semaphore.wait()
        return result.withLock { $0! }
    }

    /// Like ``run(_:)``, at a lower priority: book-wide figures, preloading.
    public static func runInBackground<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            background.async { continuation.resume(returning: body()) }
        }
    }
}

/// A task executor on a concurrent Dispatch queue (see ``Blocking/offPool(_:)``).
final class DispatchTaskExecutor: TaskExecutor {
    static let shared = DispatchTaskExecutor()
    private let queue = DispatchQueue(label: "lectern.open", qos: .userInitiated, attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
