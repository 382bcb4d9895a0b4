/// One entry of a ``ZipArchive``'s central directory.
public struct ZipEntry: Sendable, Hashable {
    /// Position in the archive's central directory.
    public let index: Int
    /// The entry name, decoded as UTF-8 (or CP437 when the name is not flagged as UTF-8).
    public let path: String
    /// Uncompressed size, as declared by the archive.
    public let size: UInt64
    /// Stored size, as declared by the archive.
    public let compressedSize: UInt64
    /// ZIP compression method (0 stored, 8 deflated, …), after any AES wrapping.
    public let compressionMethod: UInt16
    /// ZIP encryption method: 0 none, 1 traditional PKWARE, 0x0101–0x0103 WinZip AES.
    public let encryptionMethod: UInt16
    /// CRC-32 of the uncompressed data, as declared.
    public let crc: UInt32

    /// Whether the name denotes a directory.
    public var isDirectory: Bool { path.hasSuffix("/") }
    /// Whether the data is encrypted.
    public var isEncrypted: Bool { encryptionMethod != 0 }
    /// Whether the data is stored uncompressed (and so can be read at any offset when clear).
    public var isStored: Bool { compressionMethod == 0 }

    public init(index: Int, path: String, size: UInt64, compressedSize: UInt64,
                compressionMethod: UInt16, encryptionMethod: UInt16, crc: UInt32) {
        self.index = index
        self.path = path
        self.size = size
        self.compressedSize = compressedSize
        self.compressionMethod = compressionMethod
        self.encryptionMethod = encryptionMethod
        self.crc = crc
    }
}
