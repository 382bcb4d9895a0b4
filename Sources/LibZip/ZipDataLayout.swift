/// Where a ZIP archive's central directory says each entry's local header lies, and the checks
/// that make a zip bomb fail at open rather than after minutes of inflation.
///
/// libzip does not expose the local header offsets, so the central directory is read here a
/// second time: the end-of-central-directory record (ZIP64 when present), then each entry's
/// compressed size and offset. Only those numbers are taken; libzip remains the parser of
/// record, which has already accepted the structure.
struct ZipDataLayout {
    /// One entry's bytes in the archive: its local header starts at `offset`, and at least
    /// a 30-byte header and `compressedSize` bytes of data follow.
    struct Span: Equatable {
        let index: Int
        let offset: UInt64
        let compressedSize: UInt64
    }

    /// Entries in central-directory order.
    let spans: [Span]

    /// The smallest local file header.
    static let localHeaderSize: UInt64 = 30
    /// A central directory larger than this is not read (libzip holds it in memory already;
    /// 100,000 entries take about 10 MB).
    static let maxCentralDirectorySize: UInt64 = 256 << 20

    /// Reads the central directory of an archive of `size` bytes through `read`.
    init(size: UInt64, read: (Range<UInt64>) throws(ZipError) -> [UInt8]) throws(ZipError) {
        let tailLength = min(size, 22 + 0xFFFF)
        let tail = try read((size - tailLength)..<size)
        guard let end = Self.lastIndex(of: 0x0605_4B50, in: tail, before: tail.count - 21) else {
            throw .inconsistent("no end of central directory record")
        }
        var entryCount = UInt64(tail.le16(end + 10))
        var directorySize = UInt64(tail.le32(end + 12))
        var directoryOffset = UInt64(tail.le32(end + 16))
        // ZIP64: a locator just before the record points at the ZIP64 record.
        if end >= 20, tail.le32(end - 20) == 0x0706_4B50 {
            let recordOffset = tail.le64(end - 12)
            guard recordOffset <= size - min(size, 56) else { throw .inconsistent("ZIP64 record out of the file") }
            let record = try read(recordOffset..<(recordOffset + 56))
            guard record.le32(0) == 0x0606_4B50 else { throw .inconsistent("no ZIP64 end of central directory record") }
            entryCount = record.le64(32)
            directorySize = record.le64(40)
            directoryOffset = record.le64(48)
        }
        guard directorySize <= Self.maxCentralDirectorySize else { throw .tooLarge(directorySize) }
        // Data before the archive (a self-extracting stub) shifts every offset alike: then the
        // directory is found where it ends, just before the end record, as libzip finds it.
        let endOffset = size - tailLength + UInt64(end)
        let (directoryEnd, overflow) = directoryOffset.addingReportingOverflow(directorySize)
        var directory = directorySize == 0 || overflow || directoryEnd > size ? []
            : try read(directoryOffset..<directoryEnd)
        if directorySize > 0, directory.le32(0) != 0x0201_4B50, directorySize <= endOffset {
            directory = try read((endOffset - directorySize)..<endOffset)
        }
        var spans: [Span] = []
        spans.reserveCapacity(Int(min(entryCount, 1 << 20)))
        var position = 0
        while position + 46 <= directory.count, directory.le32(position) == 0x0201_4B50 {
            var compressedSize = UInt64(directory.le32(position + 20))
            let uncompressed32 = directory.le32(position + 24)
            let nameLength = Int(directory.le16(position + 28))
            let extraLength = Int(directory.le16(position + 30))
            let commentLength = Int(directory.le16(position + 32))
            var offset = UInt64(directory.le32(position + 42))
            let extraStart = position + 46 + nameLength
            guard extraStart + extraLength + commentLength <= directory.count else {
                throw .inconsistent("truncated central directory entry")
            }
            // ZIP64 extended information: the 64-bit values of the fields set to 0xFFFFFFFF,
            // in the order uncompressed size, compressed size, offset.
            var extra = extraStart
            while extra + 4 <= extraStart + extraLength {
                let id = directory.le16(extra), length = Int(directory.le16(extra + 2))
                if id == 0x0001 {
                    var field = extra + 4
                    let fieldEnd = min(field + length, extraStart + extraLength)
                    if uncompressed32 == 0xFFFF_FFFF { field += 8 }
                    if compressedSize == 0xFFFF_FFFF, field + 8 <= fieldEnd {
                        compressedSize = directory.le64(field)
                        field += 8
                    }
                    if offset == 0xFFFF_FFFF, field + 8 <= fieldEnd { offset = directory.le64(field) }
                }
                extra += 4 + length
            }
            spans.append(Span(index: spans.count, offset: offset, compressedSize: compressedSize))
            position = extraStart + extraLength + commentLength
        }
        // (A stub shifts every declared offset alike, which changes no overlap.)
        self.spans = spans
    }

    /// The first two entries whose bytes overlap, by offset: a legitimate archive never has
    /// any, and an "overlapping" zip bomb makes hundreds of entries share one deflate stream.
    func firstOverlap() -> (Span, Span)? {
        let sorted = spans.sorted { $0.offset < $1.offset }
        for (earlier, later) in zip(sorted, sorted.dropFirst()) {
            let (end, overflow) = earlier.offset.addingReportingOverflow(Self.localHeaderSize &+ earlier.compressedSize)
            if overflow || end > later.offset { return (earlier, later) }
        }
        return nil
    }

    private static func lastIndex(of signature: UInt32, in bytes: [UInt8], before limit: Int) -> Int? {
        var index = limit
        while index >= 0 {
            if bytes.le32(index) == signature { return index }
            index -= 1
        }
        return nil
    }
}

extension [UInt8] {
    /// Little-endian integers at `offset` (0 when out of range, which the callers check).
    fileprivate func le16(_ offset: Int) -> UInt16 {
        guard offset >= 0, offset + 2 <= count else { return 0 }
        return UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    fileprivate func le32(_ offset: Int) -> UInt32 {
        guard offset >= 0, offset + 4 <= count else { return 0 }
        return UInt32(le16(offset)) | UInt32(le16(offset + 2)) << 16
    }

    fileprivate func le64(_ offset: Int) -> UInt64 {
        guard offset >= 0, offset + 8 <= count else { return 0 }
        return UInt64(le32(offset)) | UInt64(le32(offset + 4)) << 32
    }
}
