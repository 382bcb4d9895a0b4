import CLecternZlib
import FoundationEssentials

/// A place in a raw DEFLATE stream where inflating can start afresh (zran-style): the start of
/// a block, with the 32 KiB of output before it that back-references may reach.
struct DeflateAccessPoint: Sendable, Equatable {
    /// Compressed bytes fully or partly consumed before the block starts.
    let compressedOffset: UInt64
    /// Bits of the byte at `compressedOffset - 1` that belong to the block (0–7).
    let bits: UInt8
    /// Uncompressed offset of the block's first byte.
    let outputOffset: UInt64
    /// Length of the window once unpacked: `min(32 KiB, outputOffset)`.
    let windowLength: Int
    /// The window, zlib-compressed (text windows pack about fourfold; they stay packed in memory
    /// and on disk).
    let packedWindow: [UInt8]
    /// CRC-32 of the ``checkLength(entrySize:)`` bytes of output after the point: starting
    /// there reproduces them only with the right window and bit position, so a stale or hostile
    /// point is caught before any byte it yields is returned.
    let check: UInt32

    static let windowSize = 32 << 10

    /// How many output bytes ``check`` covers: as far as back-references can reach, so that
    /// every byte after them depends only on bytes already checked.
    func checkLength(entrySize: UInt64) -> Int {
        Int(min(UInt64(Self.windowSize), entrySize - outputOffset))
    }

    /// The window, unpacked; nil when it does not unpack to exactly ``windowLength`` bytes.
    func window() -> [UInt8]? {
        guard windowLength > 0, windowLength <= Self.windowSize, !packedWindow.isEmpty else { return nil }
        var window = [UInt8](repeating: 0, count: windowLength)
        var length = uLongf(windowLength)
        let status = window.withUnsafeMutableBufferPointer { out in
            packedWindow.withUnsafeBufferPointer { input in
                uncompress(out.baseAddress, &length, input.baseAddress, uLong(input.count))
            }
        }
        return status == Z_OK && Int(length) == windowLength ? window : nil
    }

    /// Packs a window for storage.
    static func pack(_ window: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var packed = [UInt8](repeating: 0, count: Int(compressBound(uLong(window.count))))
        var length = uLongf(packed.count)
        let status = packed.withUnsafeMutableBufferPointer { out in
            compress2(out.baseAddress, &length, window.baseAddress, uLong(window.count), 1)
        }
        guard status == Z_OK else { return [] }
        packed.removeSubrange(Int(length)...)
        return packed
    }
}

/// The access points known for one deflated entry, in stream order.
struct DeflateAccessIndex: Sendable {
    private(set) var points: [DeflateAccessPoint] = []
    /// Whether a forward inflate recorded points up to the end of the entry.
    var complete = false

    /// Points are recorded about this far apart in the output.
    static let span: UInt64 = 1 << 20
    /// Entries shorter than this are read from their start: points would save little.
    static let minimumEntrySize: UInt64 = 4 << 20

    init(points: [DeflateAccessPoint] = [], complete: Bool = false) {
        self.points = points
        self.complete = complete
    }

    /// Where the next point may go: a ``span`` past the last one.
    var frontier: UInt64 { points.last?.outputOffset ?? 0 }

    /// Adds a point past the frontier (points recorded behind it are already known).
    mutating func append(_ point: DeflateAccessPoint) {
        guard point.outputOffset >= frontier + Self.span else { return }
        points.append(point)
    }

    /// The last point at or before `offset`.
    func point(atOrBefore offset: UInt64) -> DeflateAccessPoint? {
        var low = 0, high = points.count
        while low < high {
            let middle = (low + high) / 2
            if points[middle].outputOffset <= offset { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? points[low - 1] : nil
    }

    /// Whether the points are plausible for an entry of these sizes: strictly increasing in
    /// both offsets, inside the entry, windows of the length their offset implies.
    func isConsistent(size: UInt64, compressedSize: UInt64) -> Bool {
        var previous: DeflateAccessPoint?
        for point in points {
            guard point.bits <= 7, point.outputOffset > 0, point.outputOffset < size,
                  point.compressedOffset > 0, point.compressedOffset <= compressedSize,
                  point.windowLength == Int(min(UInt64(DeflateAccessPoint.windowSize), point.outputOffset)),
                  !point.packedWindow.isEmpty, point.packedWindow.count <= 2 * DeflateAccessPoint.windowSize
            else { return false }
            if let previous, previous.outputOffset >= point.outputOffset || previous.compressedOffset >= point.compressedOffset {
                return false
            }
            previous = point
        }
        return true
    }
}
