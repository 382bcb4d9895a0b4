import FoundationEssentials

/// Writes a ZIP archive of stored (uncompressed) entries in memory, names as given (raw bytes,
/// so not necessarily UTF-8), for inputs that are a list of entry names rather than an archive.
enum StoredZipWriter {
    static func archive(_ entries: [(name: [UInt8], data: [UInt8])]) -> [UInt8] {
        var output: [UInt8] = []
        var central: [UInt8] = []
        for entry in entries {
            let offset = UInt32(truncatingIfNeeded: output.count)
            let crc = crc32(entry.data)
            let size = UInt32(truncatingIfNeeded: entry.data.count)
            let nameLength = UInt16(truncatingIfNeeded: entry.name.count)
            output += le32(0x0403_4B50) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0x21)
            output += le32(crc) + le32(size) + le32(size) + le16(nameLength) + le16(0)
            output += entry.name + entry.data
            central += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0x21)
            central += le32(crc) + le32(size) + le32(size) + le16(nameLength) + le16(0) + le16(0)
            central += le16(0) + le16(0) + le32(0) + le32(offset) + entry.name
        }
        let count = UInt16(truncatingIfNeeded: entries.count)
        let centralOffset = UInt32(truncatingIfNeeded: output.count)
        output += central
        output += le32(0x0605_4B50) + le16(0) + le16(0) + le16(count) + le16(count)
        output += le32(UInt32(truncatingIfNeeded: central.count)) + le32(centralOffset) + le16(0)
        return output
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }
}
