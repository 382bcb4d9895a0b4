import FoundationEssentials
import Shared
import Synchronization

/// Keeps the last window read from a resource, so that consecutive reads — and the one-block
/// overlap of CBC range decryption — are served without going back to the archive.
final class BufferingResource: Resource {
    static let defaultWindow: UInt64 = 64 * 1024

    private let resource: any Resource
    private let window: UInt64
    private let buffer = Mutex<(offset: UInt64, data: Data)?>(nil)

    init(_ resource: any Resource, window: UInt64 = BufferingResource.defaultWindow) {
        self.resource = resource
        self.window = window
    }

    var link: Link { resource.link }
    var length: ResourceResult<UInt64> { resource.length }

    func read(range: Range<UInt64>?) -> ResourceResult<Data> {
        guard let range else { return resource.read(range: nil) }
        if let hit = buffer.withLock({ buffered -> Data? in
            guard let buffered, buffered.offset <= range.lowerBound,
                  range.upperBound <= buffered.offset + UInt64(buffered.data.count) else { return nil }
            let start = buffered.data.startIndex + Int(range.lowerBound - buffered.offset)
            return buffered.data[start..<(start + Int(range.count))]
        }) {
            return .success(Data(hit))
        }
        // Read at least a window forward; the resource clamps to its end.
        let upper = max(range.upperBound, range.lowerBound + window)
        return resource.read(range: range.lowerBound..<upper).map { data in
            buffer.withLock { $0 = (range.lowerBound, data) }
            return data.prefix(Int(range.count))
        }
    }

    func close() {
        buffer.withLock { $0 = nil }
        resource.close()
    }
}
