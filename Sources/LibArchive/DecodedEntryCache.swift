import FoundationEssentials

/// Decoded entries, least recently used first out, within a byte budget.
struct DecodedEntryCache {
    let budget: Int
    private var entries: [Int: Data] = [:]
    private var order: [Int] = []
    private(set) var size = 0

    init(budget: Int) { self.budget = budget }

    func contains(_ index: Int) -> Bool { entries[index] != nil }

    /// Whether `length` more bytes fit without evicting anything.
    func hasRoom(for length: Int) -> Bool { size + length <= budget }

    mutating func get(_ index: Int) -> Data? {
        guard let data = entries[index] else { return nil }
        if let position = order.firstIndex(of: index) { order.remove(at: position) }
        order.append(index)
        return data
    }

    mutating func put(_ index: Int, _ data: Data) {
        guard data.count <= budget, entries[index] == nil else { return }
        while size + data.count > budget, !order.isEmpty {
            let evicted = order.removeFirst()
            size -= entries.removeValue(forKey: evicted)?.count ?? 0
        }
        entries[index] = data
        order.append(index)
        size += data.count
    }

    mutating func removeAll() {
        entries = [:]
        order = []
        size = 0
    }
}
