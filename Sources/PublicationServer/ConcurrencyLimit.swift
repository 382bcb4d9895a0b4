/// At most `limit` pieces of work at once (reading, decrypting and sending resources); the
/// others wait in arrival order. Keeps a burst of requests from starving the machine (reads
/// are synchronous and may decrypt) while still answering every one of them.
actor ConcurrencyLimit {
    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `work` once a place is free.
    nonisolated func run<T: Sendable>(_ work: () async throws -> T) async rethrows -> T {
        await acquire()
        do {
            let result = try await work()
            await release()
            return result
        } catch {
            await release()
            throw error
        }
    }

    private func acquire() async {
        if running < limit {
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            // The place passes straight to the next waiter: `running` is unchanged.
            waiting.removeFirst().resume()
        }
    }
}
