/// The CRC-32 of ZIP entries (ISO 3309, reflected polynomial 0xEDB88320), for data that
/// libzip did not read itself (entries decrypted outside libzip).
public struct CRC32: Sendable {
    /// The checksum of the bytes given so far.
    public private(set) var value: UInt32 = 0

    public init() {}

    /// Adds `bytes` to the checksum.
    public mutating func update(_ bytes: some Collection<UInt8>) {
        var crc = ~value
        let table = Self.table
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            for byte in buffer { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        if done == nil {
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        value = ~crc
    }

    /// The CRC-32 of `bytes`.
    public static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }
}
