import FoundationEssentials
import LibMPV
import Shared
import Synchronization

/// A publication resource as an mpv stream: mpv's reads become ranged `Resource` reads, so an
/// encrypted track is decrypted block by block in memory as the player goes (and a seek
/// decrypts only the blocks it lands on).
final class ResourceStreamSource: MPVStreamSource {
    private let resource: any Resource
    private let statistics: AudioReadStatistics

    init(_ resource: any Resource, statistics: AudioReadStatistics) {
        self.resource = resource
        self.statistics = statistics
    }

    var size: UInt64? {
        if case .success(let length) = resource.length { return length }
        return nil
    }

    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard buffer.count > 0 else { return 0 }
        switch resource.read(range: offset..<(offset + UInt64(buffer.count))) {
        case .success(let data):
            let count = min(data.count, buffer.count)
            guard count > 0 else { return 0 }
            data.withUnsafeBytes { bytes in
                buffer.baseAddress!.copyMemory(from: bytes.baseAddress!, byteCount: count)
            }
            statistics.record(count)
            return count
        case .failure:
            statistics.recordFailure()
            return nil
        }
    }

    func close() { resource.close() }
}

/// How much audio the player has read from the publication (for tests and `lectern listen`).
public final class AudioReadStatistics: Sendable {
    private let counters = Mutex<(bytes: UInt64, reads: Int, failures: Int)>((0, 0, 0))

    public init() {}

    /// Bytes handed to the decoder so far.
    public var bytesRead: UInt64 { counters.withLock { $0.bytes } }
    /// Read calls so far.
    public var reads: Int { counters.withLock { $0.reads } }
    /// Reads that failed.
    public var failures: Int { counters.withLock { $0.failures } }

    func record(_ count: Int) { counters.withLock { $0.bytes += UInt64(count); $0.reads += 1 } }
    func recordFailure() { counters.withLock { $0.failures += 1 } }
}
