import CLecternZlib

/// The CRC-32 of ZIP entries (ISO 3309), for data that libzip did not read itself (entries
/// decrypted outside libzip): zlib's `crc32`, which works a word at a time.
public struct CRC32: Sendable {
    /// The checksum of the bytes given so far.
    public private(set) var value: UInt32 = 0

    public init() {}

    /// Adds `bytes` to the checksum.
    public mutating func update(_ bytes: some Collection<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in add(UnsafeRawBufferPointer(buffer)) }
        if done == nil { Array(bytes).withUnsafeBytes { add($0) } }
    }

    private mutating func add(_ buffer: UnsafeRawBufferPointer) {
        var offset = 0
        // zlib takes a 32-bit length: larger buffers go in pieces.
        while offset < buffer.count {
            let count = min(buffer.count - offset, Int(UInt32.max))
            let start = buffer.baseAddress!.advanced(by: offset).assumingMemoryBound(to: Bytef.self)
            value = UInt32(crc32(uLong(value), start, uInt(count)))
            offset += count
        }
    }

    /// The CRC-32 of `bytes`.
    public static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}
