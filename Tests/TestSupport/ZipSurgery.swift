import Foundation

/// Reads and patches the headers of a ZIP archive in memory, to make damaged or lying archives
/// for tests (sizes that lie, corrupted data, truncated files). Handles plain (non-ZIP64)
/// archives such as those `zip` writes for small files.
public enum ZipSurgery {
    /// Where an entry lives in the archive.
    public struct EntryLocation: Equatable {
        /// Offset of the local file header.
        public var localHeader: Int
        /// Offset of the entry's data (after the local header, name and extra field).
        public var dataOffset: Int
        /// Offset of the central directory header.
        public var centralHeader: Int
        public var compressedSize: Int
        public var uncompressedSize: Int
        public var compressionMethod: Int
    }

    /// Why an archive could not be patched.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The location of the entry named `name`.
    public static func locate(_ name: String, in archive: Data) throws -> EntryLocation {
        let bytes = [UInt8](archive)
        guard let end = lastIndex(of: 0x0605_4B50, in: bytes) else { throw Failure(description: "no end of central directory") }
        let count = Int(u16(bytes, end + 10))
        var offset = Int(u32(bytes, end + 16))
        for _ in 0..<count {
            guard u32(bytes, offset) == 0x0201_4B50 else { throw Failure(description: "bad central header at \(offset)") }
            let nameLength = Int(u16(bytes, offset + 28))
            let extraLength = Int(u16(bytes, offset + 30))
            let commentLength = Int(u16(bytes, offset + 32))
            let entryName = String(decoding: bytes[(offset + 46)..<(offset + 46 + nameLength)], as: UTF8.self)
            if entryName == name {
                let local = Int(u32(bytes, offset + 42))
                guard u32(bytes, local) == 0x0403_4B50 else { throw Failure(description: "bad local header at \(local)") }
                let data = local + 30 + Int(u16(bytes, local + 26)) + Int(u16(bytes, local + 28))
                return EntryLocation(localHeader: local, dataOffset: data, centralHeader: offset,
                                     compressedSize: Int(u32(bytes, offset + 20)), uncompressedSize: Int(u32(bytes, offset + 24)),
                                     compressionMethod: Int(u16(bytes, offset + 10)))
            }
            offset += 46 + nameLength + extraLength + commentLength
        }
        throw Failure(description: "no entry named \(name)")
    }

    /// Makes the local and central headers of `name` declare `size` uncompressed bytes.
    public static func setUncompressedSize(_ size: UInt32, of name: String, in archive: inout Data) throws {
        let location = try locate(name, in: archive)
        put(size, at: location.localHeader + 22, in: &archive)
        put(size, at: location.centralHeader + 24, in: &archive)
    }

    /// Makes the local and central headers of `name` declare `crc`.
    public static func setCRC(_ crc: UInt32, of name: String, in archive: inout Data) throws {
        let location = try locate(name, in: archive)
        put(crc, at: location.localHeader + 14, in: &archive)
        put(crc, at: location.centralHeader + 16, in: &archive)
    }

    /// Inverts the bits of `count` bytes of the data of `name`, starting `offset` bytes into it.
    public static func corrupt(_ name: String, at offset: Int, count: Int = 1, in archive: inout Data) throws {
        let location = try locate(name, in: archive)
        guard offset + count <= location.compressedSize else { throw Failure(description: "outside the entry") }
        let start = archive.startIndex + location.dataOffset + offset
        for index in start..<(start + count) { archive[index] = ~archive[index] }
    }

    private static func lastIndex(of signature: UInt32, in bytes: [UInt8]) -> Int? {
        var index = bytes.count - 22
        while index >= 0 {
            if u32(bytes, index) == signature { return index }
            index -= 1
        }
        return nil
    }

    private static func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(u16(bytes, offset)) | UInt32(u16(bytes, offset + 2)) << 16
    }

    private static func put(_ value: UInt32, at offset: Int, in data: inout Data) {
        for shift in 0..<4 { data[data.startIndex + offset + shift] = UInt8(truncatingIfNeeded: value >> (8 * shift)) }
    }
}
