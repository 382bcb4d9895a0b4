import FoundationEssentials
import Shared
import Synchronization

/// A resource read in fixed-size aligned blocks, the most recent of which are kept in memory:
/// what a remote ZIP archive needs, since libzip reads the same places again and again (the
/// central directory, a local header then the data after it) in small pieces that would each
/// cost an HTTP request otherwise. Consecutive missing blocks are fetched with one request.
///
/// Reads larger than half the cache bypass it (a whole audio track is not worth caching).
final class BlockCachingResource: Resource {
    private let resource: any Resource
    let blockSize: UInt64
    let maxBlocks: Int
    private let knownLength: UInt64?
    /// Blocks by index, with the order of use (most recent last).
    private let cache = Mutex<(blocks: [UInt64: Data], order: [UInt64])>(([:], []))

    /// - Parameters:
    ///   - length: the resource's length when already known (saves a request).
    ///   - blockSize: the alignment and size of the cached blocks.
    ///   - maxBlocks: how many blocks are kept.
    init(_ resource: any Resource, length: UInt64? = nil, blockSize: UInt64 = 64 << 10, maxBlocks: Int = 64) {
        self.resource = resource
        knownLength = length
        self.blockSize = max(blockSize, 512)
        self.maxBlocks = max(maxBlocks, 2)
    }

    var link: Link { resource.link }

    var length: ResourceResult<UInt64> {
        if let knownLength { return .success(knownLength) }
        return resource.length
    }

    /// Puts bytes already downloaded (e.g. the end of the file, read to probe the server) into
    /// the cache: only the whole blocks they cover are kept, and the last block of the file.
    func seed(offset: UInt64, data: Data, totalLength: UInt64) {
        var block = (offset + blockSize - 1) / blockSize
        while true {
            let start = block * blockSize
            let end = min(start + blockSize, totalLength)
            guard start < end, end <= offset + UInt64(data.count) else { break }
            let from = data.startIndex + Int(start - offset)
            store(block, Data(data[from..<(from + Int(end - start))]))
            block += 1
        }
    }

    func read(range: Range<UInt64>?) -> ResourceResult<Data> {
        length.flatMap { total in
            let wanted = (range ?? 0..<total).clamped(toLength: total)
            guard !wanted.isEmpty else { return .success(Data()) }
            if wanted.count > UInt64(maxBlocks / 2) * blockSize {
                return resource.read(range: wanted)
            }
            return readThroughBlocks(wanted, total: total)
        }
    }

    private func readThroughBlocks(_ wanted: Range<UInt64>, total: UInt64) -> ResourceResult<Data> {
        let first = wanted.lowerBound / blockSize
        let last = (wanted.upperBound - 1) / blockSize
        var blocks: [UInt64: Data] = [:]
        var missing: [UInt64] = []
        for index in first...last {
            if let block = cached(index) { blocks[index] = block } else { missing.append(index) }
        }
        // One request per run of consecutive missing blocks.
        var runStart = 0
        while runStart < missing.count {
            var runEnd = runStart
            while runEnd + 1 < missing.count, missing[runEnd + 1] == missing[runEnd] + 1 { runEnd += 1 }
            let lower = missing[runStart] * blockSize
            let upper = min((missing[runEnd] + 1) * blockSize, total)
            switch resource.read(range: lower..<upper) {
            case .failure(let error):
                return .failure(error)
            case .success(let data):
                guard UInt64(data.count) == upper - lower else {
                    return .failure(.other(ResourceFailure("\(data.count) bytes received for \(upper - lower) asked at offset \(lower)")))
                }
                for index in missing[runStart]...missing[runEnd] {
                    let from = data.startIndex + Int(index * blockSize - lower)
                    let to = min(from + Int(blockSize), data.endIndex)
                    let block = Data(data[from..<to])
                    blocks[index] = block
                    store(index, block)
                }
            }
            runStart = runEnd + 1
        }
        var output = Data()
        output.reserveCapacity(Int(wanted.count))
        for index in first...last {
            guard let block = blocks[index] else { return .failure(.other(ResourceFailure("missing block \(index)"))) }
            let blockStart = index * blockSize
            let from = Int(max(wanted.lowerBound, blockStart) - blockStart)
            let to = Int(min(wanted.upperBound, blockStart + UInt64(block.count)) - blockStart)
            guard from <= to else { return .failure(.other(ResourceFailure("short block \(index)"))) }
            output.append(block[(block.startIndex + from)..<(block.startIndex + to)])
        }
        return .success(output)
    }

    private func cached(_ index: UInt64) -> Data? {
        cache.withLock { cache in
            guard let block = cache.blocks[index] else { return nil }
            if let position = cache.order.firstIndex(of: index) { cache.order.remove(at: position) }
            cache.order.append(index)
            return block
        }
    }

    private func store(_ index: UInt64, _ block: Data) {
        cache.withLock { cache in
            if cache.blocks.updateValue(block, forKey: index) == nil {
                cache.order.append(index)
            }
            while cache.order.count > maxBlocks {
                cache.blocks[cache.order.removeFirst()] = nil
            }
        }
    }

    func close() {
        cache.withLock { $0 = ([:], []) }
        resource.close()
    }
}
