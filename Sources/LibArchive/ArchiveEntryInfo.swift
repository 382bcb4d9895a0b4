/// An entry of an archive, as its header declares it.
public struct ArchiveEntryInfo: Sendable, Equatable {
    /// Its position in the archive, which is the order libarchive reads entries in.
    public let index: Int
    /// Its path inside the archive (UTF-8 when the archive says how; else as libarchive decodes it).
    public let path: String
    /// The size its header declares, when it declares one; reading may find otherwise.
    public let declaredSize: UInt64?
    public let isDirectory: Bool
    public let isEncrypted: Bool
}

/// What reading an archive may cost.
public struct ArchiveLimits: Sendable {
    /// Entries beyond this refuse the archive.
    public var maxEntries: Int
    /// An entry read whole may not expand past this.
    public var maxEntrySize: UInt64
    /// Decoded entries kept in memory, in bytes (the pages of a solid archive, decoded once).
    public var cacheSize: Int

    public init(maxEntries: Int = 20_000, maxEntrySize: UInt64 = 64 << 20, cacheSize: Int = 192 << 20) {
        self.maxEntries = maxEntries
        self.maxEntrySize = maxEntrySize
        self.cacheSize = cacheSize
    }
}
