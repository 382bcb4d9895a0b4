import CLecternZip
import CLecternZlib
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A forward position in a deflated, clear entry, inflated here (raw DEFLATE) from the entry's
/// compressed bytes rather than by libzip, so that it can start at an access point and record
/// new ones on the way (zlib's examples/zran.c describes the method).
///
/// Used only under the archive's lock.
final class RawDeflateCursor {
    let entry: ZipEntry
    /// The entry's compressed bytes (opened with `ZIP_FL_COMPRESSED`, which libzip can seek).
    private let file: OpaquePointer
    /// zlib keeps a pointer back to its stream: it must not move.
    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutablePointer<UInt8>
    private static let inputSize = 64 << 10
    /// Offset in the compressed bytes of the next byte to read from the file.
    private var compressedRead: UInt64
    /// Uncompressed offset of the next byte ``read(count:)`` returns.
    private(set) var position: UInt64
    /// Output inflated past ``position`` (while checking a point), returned first.
    private var ahead: [UInt8] = []
    /// The running CRC-32, for a cursor that started at the entry's first byte.
    private var crc: UInt32?
    private(set) var finished = false
    /// Whether the cursor started at the entry's first byte, so that ``finish()`` checks the CRC-32.
    var checksCRC: Bool { crc != nil }
    /// A point being checked (the start point) or recorded (its check still growing).
    private var pending: (point: DeflateAccessPoint, crc: UInt32, remaining: Int, verifying: Bool)?
    /// Bytes inflated, for tests and measurements.
    private(set) var inflated: UInt64 = 0
    /// How much of ``inflated`` the archive has counted.
    var counted: UInt64 = 0

    /// Opens a cursor at `start` (nil: the entry's start).
    init(entry: ZipEntry, file: OpaquePointer, start: DeflateAccessPoint?) throws(ZipError) {
        self.entry = entry
        self.file = file
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        input = .allocate(capacity: Self.inputSize)
        compressedRead = 0
        position = 0
        // Once every property is set, a throwing init still runs deinit, which releases.
        guard lectern_inflateInit2(stream, -15) == Z_OK else { throw .readFailed("zlib init failed") }
        guard let start else {
            crc = 0
            return
        }
        try begin(at: start)
    }

    deinit { release() }

    private func release() {
        inflateEnd(stream)
        stream.deallocate()
        input.deallocate()
        closeFile()
    }

    /// Whether the compressed bytes can still be read (the archive closes them when it closes).
    private(set) var isOpen = true

    func closeFile() {
        guard isOpen else { return }
        lectern_zip_fclose(file)
        isOpen = false
    }

    private func begin(at point: DeflateAccessPoint) throws(ZipError) {
        guard let window = point.window() else { throw .inconsistent("bad access point window") }
        let first = point.compressedOffset - (point.bits > 0 ? 1 : 0)
        guard lectern_zip_fseek(file, zip_int64_t(first), SEEK_SET) == 0 else { throw ZipArchive.fileError(file) }
        compressedRead = first
        if point.bits > 0 {
            try fill()
            guard stream.pointee.avail_in > 0 else { throw .inconsistent("bad access point") }
            let byte = Int32(stream.pointee.next_in.pointee)
            stream.pointee.next_in += 1
            stream.pointee.avail_in -= 1
            guard inflatePrime(stream, Int32(point.bits), byte >> (8 - Int32(point.bits))) == Z_OK else {
                throw .inconsistent("bad access point")
            }
        }
        let status = window.withUnsafeBufferPointer { inflateSetDictionary(stream, $0.baseAddress, uInt($0.count)) }
        guard status == Z_OK else { throw .inconsistent("bad access point window") }
        position = point.outputOffset
        pending = (point, 0, point.checkLength(entrySize: entry.size), true)
        // Check the point before anything inflated from it leaves this cursor.
        while pending != nil, !finished {
            ahead += try inflateAhead(limit: 64 << 10)
        }
    }

    /// Reads the next compressed bytes when zlib has used up the last ones (none at the end:
    /// zlib may still have the end of the stream to tell).
    private func fill() throws(ZipError) {
        guard stream.pointee.avail_in == 0 else { return }
        guard isOpen else { throw .closed }
        let want = min(UInt64(Self.inputSize), entry.compressedSize - min(compressedRead, entry.compressedSize))
        guard want > 0 else { return }
        let read = lectern_zip_fread(file, input, zip_uint64_t(want))
        if read < 0 { throw ZipArchive.fileError(file) }
        guard read > 0 else { return }
        compressedRead += UInt64(read)
        stream.pointee.next_in = input
        stream.pointee.avail_in = uInt(read)
    }

    /// Skips to `offset` (at or after ``position``).
    func skip(to offset: UInt64) throws(ZipError) {
        let scratchSize = 64 << 10
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: scratchSize)
        defer { scratch.deallocate() }
        while position < offset {
            let count = try read(into: scratch, count: Int(min(offset - position, UInt64(scratchSize))))
            if count == 0 { return }
        }
    }

    /// Reads up to `count` bytes from ``position`` into `buffer`; fewer only at the end of
    /// the entry.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(ZipError) -> Int {
        var received = 0
        if !ahead.isEmpty {
            received = min(count, ahead.count)
            ahead.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: received) }
            ahead.removeFirst(received)
            position += UInt64(received)
        }
        while received < count, !finished {
            let made = try inflate(into: buffer + received, limit: min(count - received, 1 << 20))
            received += made
            position += UInt64(made)
        }
        return received
    }

    /// Reads past the declared end: the stream must end there, and a cursor from the start
    /// must match the declared CRC-32 (as libzip checks a whole read).
    func finish() throws(ZipError) {
        guard ahead.isEmpty else { throw .largerThanDeclared(entry.size) }
        if !finished {
            var extra: UInt8 = 0
            if try inflate(into: &extra, limit: 1) > 0 { throw .largerThanDeclared(entry.size) }
        }
        if let crc, crc != entry.crc { throw .checksumMismatch }
    }

    /// Inflates output past ``ahead`` into a new array (to check a start point).
    private func inflateAhead(limit: Int) throws(ZipError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: limit)
        let count = try output.withUnsafeMutableBufferPointer { buffer throws(ZipError) in
            try inflate(into: buffer.baseAddress!, limit: limit)
        }
        output.removeSubrange(count...)
        return output
    }

    /// Inflates up to `limit` bytes into `output`, stopping at block boundaries to record points.
    private func inflate(into output: UnsafeMutablePointer<UInt8>, limit: Int) throws(ZipError) -> Int {
        let end = position + UInt64(ahead.count)
        // Never inflate more than one byte past the declared size: that byte is the error.
        let room = Int(min(UInt64(limit), entry.size + 1 - min(end, entry.size)))
        var count = 0
        while count < room, !finished {
            if stream.pointee.avail_in == 0 { try fill() }
            stream.pointee.next_out = output + count
            stream.pointee.avail_out = uInt(room - count)
            let status = CLecternZlib.inflate(stream, Z_BLOCK)
            let made = room - count - Int(stream.pointee.avail_out)
            if status == Z_BUF_ERROR, made == 0, stream.pointee.avail_in == 0 {
                throw .inconsistent("\(entry.path): compressed data ends early")
            }
            account(UnsafeBufferPointer(start: output + count, count: made))
            count += made
            let total = end + UInt64(count)
            if total > entry.size { throw .largerThanDeclared(entry.size) }
            if status == Z_OK || status == Z_BUF_ERROR || status == Z_STREAM_END { try checkPending() }
            switch status {
            case Z_STREAM_END:
                finished = true
                if total < entry.size { throw .inconsistent("\(entry.path) is shorter than declared") }
                pending = nil
            case Z_OK, Z_BUF_ERROR:
                let boundary = stream.pointee.data_type & 128 != 0 && stream.pointee.data_type & 64 == 0
                if boundary, recording, pending == nil, total < entry.size { startPoint(at: total) }
            default:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "invalid deflate data"
                throw .inconsistent("\(entry.path): \(reason)")
            }
        }
        return count
    }

    /// Counts and checks freshly inflated bytes.
    private func account(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return }
        inflated += UInt64(bytes.count)
        if let value = crc { crc = UInt32(crc32(uLong(value), bytes.baseAddress, uInt(bytes.count))) }
        guard var pending else { return }
        let take = min(pending.remaining, bytes.count)
        pending.crc = UInt32(crc32(uLong(pending.crc), bytes.baseAddress, uInt(take)))
        pending.remaining -= take
        self.pending = pending
    }

    /// Settles a point whose check has all its bytes: a start point that fails it is bad (the
    /// caller drops the index), a recorded one joins ``recorded``.
    private func checkPending() throws(ZipError) {
        guard let pending, pending.remaining == 0 else { return }
        self.pending = nil
        if pending.verifying {
            guard pending.crc == pending.point.check else { throw .inconsistent("stale access point") }
        } else {
            let point = pending.point
            recorded.append(DeflateAccessPoint(
                compressedOffset: point.compressedOffset, bits: point.bits, outputOffset: point.outputOffset,
                windowLength: point.windowLength, packedWindow: point.packedWindow, check: pending.crc))
        }
    }

    /// Records a point at a block boundary when the last one is a span behind.
    private var lastRecorded: UInt64 = 0
    private func startPoint(at offset: UInt64) {
        guard offset >= max(lastRecorded, recordFloor) + DeflateAccessIndex.span else { return }
        var window = [UInt8](repeating: 0, count: DeflateAccessPoint.windowSize)
        var length = uInt(window.count)
        let status = window.withUnsafeMutableBufferPointer { inflateGetDictionary(stream, $0.baseAddress, &length) }
        guard status == Z_OK, Int(length) == Int(min(UInt64(window.count), offset)) else { return }
        let packed = window.withUnsafeBufferPointer { DeflateAccessPoint.pack(UnsafeBufferPointer(rebasing: $0[0..<Int(length)])) }
        guard !packed.isEmpty else { return }
        lastRecorded = offset
        let consumed = compressedRead - UInt64(stream.pointee.avail_in)
        let point = DeflateAccessPoint(
            compressedOffset: consumed, bits: UInt8(stream.pointee.data_type & 7), outputOffset: offset,
            windowLength: Int(length), packedWindow: packed, check: 0)
        pending = (point, 0, point.checkLength(entrySize: entry.size), false)
    }

    /// Whether to record points, only past ``recordFloor`` (the index's frontier when the
    /// cursor opened); the owner takes them from ``recorded``.
    var recording = false
    var recordFloor: UInt64 = 0
    var recorded: [DeflateAccessPoint] = []
}
