import Bookshelf
import Dispatch
import Synchronization

/// Writes reading positions to the library one at a time, in the order they were taken, and
/// only the newest of those waiting: page turns come faster than disk writes, and writes on a
/// concurrent queue could land out of order, an older position overwriting a newer one.
/// A failed write is reported (the reader shows it), never dropped.
final class PositionWriter: Sendable {
    private let queue = DispatchQueue(label: "lectern.positions", qos: .utility)
    /// The newest request per publication: a queued write that is no longer the newest is skipped.
    private let newest = Mutex<[Int64: Int]>([:])

    /// Saves in the background; `failed` is called with the reason when the write fails.
    func save(_ store: LibraryStore, id: Int64, locator: String, progress: Double?,
              failed: @escaping @Sendable (String) -> Void) {
        let ticket = newest.withLock { tickets -> Int in
            tickets[id, default: 0] += 1
            return tickets[id]!
        }
        queue.async {
            guard self.newest.withLock({ $0[id] }) == ticket else { return }
            do throws(LibraryError) {
                try store.savePosition(id: id, locator: locator, progress: progress)
            } catch {
                failed(error.userMessage)
            }
        }
    }

    /// Saves now, after the writes already queued (closing the book): what it returns is what
    /// the library holds.
    func saveNow(_ store: LibraryStore, id: Int64, locator: String, progress: Double?) -> Result<Void, LibraryError> {
        newest.withLock { $0[id, default: 0] += 1 }
        return queue.sync {
            do throws(LibraryError) {
                try store.savePosition(id: id, locator: locator, progress: progress)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
    }

    /// Waits until every queued write is done (tests).
    func flush() {
        queue.sync {}
    }
}
