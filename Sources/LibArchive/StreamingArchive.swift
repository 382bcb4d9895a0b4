import FoundationEssentials
import Synchronization

/// A RAR, 7z or tar archive read through libarchive, which reads entries in order only.
///
/// Opening reads the headers once into an index of entries. An entry is then read by going
/// forward from where the last read stopped, or by starting a new pass when it lies behind.
/// In a solid archive (7z, a solid RAR) passing over an entry decodes it anyway, so the
/// entries worth keeping that a pass goes over are kept, decoded, in a cache of bounded size:
/// reading a solid archive's pages in order decodes each page once. A solid RAR's pages are
/// kept already while its headers are indexed, since indexing it decodes every entry.
///
/// Thread-safe: every libarchive call happens under one lock.
public final class StreamingArchive: Sendable {
    /// The archive's path, or the name given to one read from memory.
    public let path: String
    private let source: ArchiveSource
    /// The copy of an archive read from memory, freed with it.
    private let owned: OwnedBytes?
    /// Entries in archive order (``ArchiveEntryInfo/index`` is the position here).
    public let entries: [ArchiveEntryInfo]
    /// The name libarchive gives the format ("RAR5", "7-Zip", "GNU tar format").
    public let formatName: String
    /// Whether passing over an entry decodes it (7z, a solid RAR).
    public let isSolid: Bool
    public let limits: ArchiveLimits
    private let keeps: @Sendable (String) -> Bool
    private let state: Mutex<State>

    private struct State {
        var cursor: ArchiveCursor?
        var cache: DecodedEntryCache
        var isClosed = false
        /// Passes begun over the archive, the indexing one included.
        var passes = 1
    }

    /// Opens the archive at `path` and indexes its entries.
    ///
    /// - Parameter keeps: whether an entry (by path) is worth keeping decoded when a pass goes
    ///   over it: the pages, not the stray files beside them.
    /// - Throws: ``ArchiveError/encrypted(format:)`` when an entry is encrypted,
    ///   ``ArchiveError/tooManyEntries(limit:)``, and as libarchive reports.
    public convenience init(path: String, limits: ArchiveLimits = ArchiveLimits(),
                            keeps: @escaping @Sendable (String) -> Bool = { _ in true }) throws(ArchiveError) {
        try self.init(source: .file(path), name: path, limits: limits, keeps: keeps)
    }

    /// Opens an archive held in memory (a copy of `data` is kept while the archive lives).
    public convenience init(data: Data, name: String, limits: ArchiveLimits = ArchiveLimits(),
                            keeps: @escaping @Sendable (String) -> Bool = { _ in true }) throws(ArchiveError) {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 1)
        data.withUnsafeBytes { bytes.copyMemory(from: $0) }
        try self.init(source: .memory(UnsafeRawBufferPointer(rebasing: bytes[0..<data.count])), name: name,
                      limits: limits, keeps: keeps, owned: bytes)
    }

    private init(source: ArchiveSource, name: String, limits: ArchiveLimits, keeps: @escaping @Sendable (String) -> Bool,
                 owned: UnsafeMutableRawBufferPointer? = nil) throws(ArchiveError) {
        self.path = name
        self.source = source
        self.owned = owned.map(OwnedBytes.init)
        self.limits = limits
        self.keeps = keeps
        let head = source.head(64)
        if RARMainHeader.isHeaderEncrypted(head: head) { throw .encrypted(format: "RAR") }
        let cursor = try ArchiveCursor(source: source)
        let isSolidRAR = RARMainHeader.isSolid(head: head)
        var cache = DecodedEntryCache(budget: limits.cacheSize)
        var entries: [ArchiveEntryInfo] = []
        while let entry = try cursor.next() {
            guard entries.count < limits.maxEntries else { throw .tooManyEntries(limit: limits.maxEntries) }
            let format = cursor.formatName
            if entry.isEncrypted { throw .encrypted(format: format.contains("7-Zip") ? "7z" : format.contains("RAR") ? "RAR" : format) }
            entries.append(entry)
            if isSolidRAR, !entry.isDirectory, keeps(entry.path), cache.hasRoom(for: Int(entry.declaredSize ?? 0)) {
                cache.put(entry.index, try cursor.readData(limit: limits.maxEntrySize, path: entry.path))
            } else {
                try cursor.skip()
            }
        }
        formatName = cursor.formatName
        isSolid = isSolidRAR || formatName.contains("7-Zip")
        self.entries = entries
        // The pass is over: the next read starts another.
        state = Mutex(State(cursor: nil, cache: cache))
    }

    /// The decoded content of the entry at `index`.
    ///
    /// - Throws: ``ArchiveError/entryTooLarge(path:limit:)`` past ``ArchiveLimits/maxEntrySize``,
    ///   ``ArchiveError/entryNotFound(_:)``, ``ArchiveError/closed``, and as libarchive reports.
    public func read(_ index: Int) throws(ArchiveError) -> Data {
        guard entries.indices.contains(index) else { throw .entryNotFound(index) }
        let limits = limits, keeps = keeps, isSolid = isSolid, source = source
        return try state.withLock { (state: inout State) throws(ArchiveError) -> Data in
            guard !state.isClosed else { throw .closed }
            if let data = state.cache.get(index) { return data }
            if state.cursor == nil || state.cursor!.position >= index {
                state.cursor = nil
                state.cursor = try ArchiveCursor(source: source)
                state.passes += 1
            }
            guard let cursor = state.cursor else { throw .closed }
            do throws(ArchiveError) {
                while let entry = try cursor.next() {
                    if entry.index == index {
                        let data = try cursor.readData(limit: limits.maxEntrySize, path: entry.path)
                        state.cache.put(index, data)
                        return data
                    }
                    if isSolid, !entry.isDirectory, keeps(entry.path), !state.cache.contains(entry.index) {
                        state.cache.put(entry.index, try cursor.readData(limit: limits.maxEntrySize, path: entry.path))
                    } else {
                        try cursor.skip()
                    }
                }
            } catch {
                // A cursor that failed mid-entry cannot go on.
                state.cursor = nil
                throw error
            }
            state.cursor = nil
            throw .damaged("the archive ends before entry #\(index)")
        }
    }

    /// Bytes held decoded in the cache (for tests and diagnostics).
    public var cachedBytes: Int { state.withLock { $0.cache.size } }

    /// How many times libarchive began reading the archive, indexing included: reading the
    /// pages in order adds at most one pass (none for a solid RAR kept whole).
    public var passCount: Int { state.withLock { $0.passes } }

    /// Releases libarchive's reader and the decoded entries.
    public func close() {
        state.withLock { state in
            state.isClosed = true
            state.cursor = nil
            state.cache.removeAll()
        }
    }
}

/// Bytes allocated for an archive read from memory, freed when the archive goes.
private final class OwnedBytes: @unchecked Sendable {
    let bytes: UnsafeMutableRawBufferPointer
    init(_ bytes: UnsafeMutableRawBufferPointer) { self.bytes = bytes }
    deinit { bytes.deallocate() }
}
