import FoundationEssentials
import Synchronization

/// The decrypted content of the last few resources read whole (the current chapter and its
/// neighbours), in memory only and bounded in entries and bytes, least recently used first
/// out. Decrypted content is never written to disk (LCP §7.5).
public final class DecryptedResourceCache: Sendable {
    private struct State {
        var entries: [(key: String, data: Data)] = []
        var bytes = 0
    }

    public let maxEntries: Int
    public let maxBytes: Int
    private let state = Mutex(State())

    public init(maxEntries: Int = 3, maxBytes: Int = 64 << 20) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    func get(_ key: String) -> Data? {
        state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = state.entries.remove(at: index)
            state.entries.append(entry)
            return entry.data
        }
    }

    func put(_ key: String, _ data: Data) {
        guard maxEntries > 0, data.count <= maxBytes else { return }
        state.withLock { state in
            if let index = state.entries.firstIndex(where: { $0.key == key }) {
                state.bytes -= state.entries.remove(at: index).data.count
            }
            state.entries.append((key, data))
            state.bytes += data.count
            while state.entries.count > maxEntries || state.bytes > maxBytes {
                state.bytes -= state.entries.removeFirst().data.count
            }
        }
    }

    /// Forgets everything (when the publication closes).
    public func removeAll() {
        state.withLock { $0 = State() }
    }
}
