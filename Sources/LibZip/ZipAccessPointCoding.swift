import FoundationEssentials

/// The file format of ``ZipAccessPointStore``, little-endian:
///
///     magic (16) · key length (4) · key (UTF-8) · entry size (8) · compressed size (8) ·
///     point count (4) · points · CRC-32 of everything before (4)
///     point: compressed offset (8) · bits (1) · output offset (8) · window length (4) ·
///            check (4) · packed window length (4) · packed window
///
/// Decoding refuses anything that does not add up; each point is checked again against the
/// entry's own bytes when a read starts from it (``DeflateAccessPoint/check``).
enum ZipAccessPointCoding {
    static let maxPoints = 1 << 16

    static func encode(_ index: DeflateAccessIndex, key: ZipAccessPointStore.Key, entry: ZipEntry) -> [UInt8] {
        var bytes = ZipAccessPointStore.magic
        let keyBytes = Array(key.text.utf8)
        append(UInt32(keyBytes.count), to: &bytes)
        bytes += keyBytes
        append(entry.size, to: &bytes)
        append(entry.compressedSize, to: &bytes)
        append(UInt32(index.points.count), to: &bytes)
        for point in index.points {
            append(point.compressedOffset, to: &bytes)
            bytes.append(point.bits)
            append(point.outputOffset, to: &bytes)
            append(UInt32(point.windowLength), to: &bytes)
            append(point.check, to: &bytes)
            append(UInt32(point.packedWindow.count), to: &bytes)
            bytes += point.packedWindow
        }
        append(CRC32.checksum(bytes), to: &bytes)
        return bytes
    }

    static func decode(_ bytes: [UInt8], key: ZipAccessPointStore.Key, entry: ZipEntry) -> DeflateAccessIndex? {
        guard bytes.count > ZipAccessPointStore.magic.count + 4 else { return nil }
        let body = bytes[0..<(bytes.count - 4)]
        var trailer = Reader(bytes: bytes, offset: bytes.count - 4)
        guard trailer.uint32() == CRC32.checksum(body) else { return nil }
        var reader = Reader(bytes: Array(body), offset: 0)
        guard reader.take(ZipAccessPointStore.magic.count) == ZipAccessPointStore.magic,
              let keyLength = reader.uint32(), let keyBytes = reader.take(Int(keyLength)),
              keyBytes == Array(key.text.utf8),
              reader.uint64() == entry.size, reader.uint64() == entry.compressedSize,
              let count = reader.uint32(), count <= maxPoints else { return nil }
        var points: [DeflateAccessPoint] = []
        for _ in 0..<count {
            guard let compressedOffset = reader.uint64(), let bits = reader.take(1)?.first,
                  let outputOffset = reader.uint64(), let windowLength = reader.uint32(),
                  let check = reader.uint32(), let packedLength = reader.uint32(),
                  packedLength <= 2 * DeflateAccessPoint.windowSize,
                  let packed = reader.take(Int(packedLength)) else { return nil }
            points.append(DeflateAccessPoint(
                compressedOffset: compressedOffset, bits: bits, outputOffset: outputOffset,
                windowLength: Int(windowLength), packedWindow: packed, check: check))
        }
        guard reader.offset == body.count else { return nil }
        let index = DeflateAccessIndex(points: points, complete: true)
        return index.isConsistent(size: entry.size, compressedSize: entry.compressedSize) ? index : nil
    }

    private static func append(_ value: some FixedWidthInteger, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    /// Bounds-checked reads; nil past the end.
    private struct Reader {
        let bytes: [UInt8]
        var offset: Int

        mutating func take(_ count: Int) -> [UInt8]? {
            guard count >= 0, count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return Array(bytes[offset..<(offset + count)])
        }

        mutating func uint32() -> UInt32? { integer() }
        mutating func uint64() -> UInt64? { integer() }

        private mutating func integer<T: FixedWidthInteger>() -> T? {
            guard let raw = take(MemoryLayout<T>.size) else { return nil }
            return raw.reversed().reduce(T(0)) { ($0 << 8) | T($1) }
        }
    }
}
