import CLecternZip
import FoundationEssentials
import Synchronization

/// Random access to the bytes of a ZIP archive that is not a local file: a publication on a
/// web server read with HTTP `Range` requests, an archive in memory.
///
/// libzip calls it synchronously, under the archive's lock, so one call at a time: the
/// central directory first (the end of the file), then each entry's local header and data.
public protocol ZipRandomAccessReader: Sendable {
    /// The archive's size in bytes.
    func size() throws(ZipError) -> UInt64

    /// The bytes of `range` (always within the size). Fewer bytes than asked is an error.
    func read(range: Range<UInt64>) throws(ZipError) -> Data
}

extension ZipArchive {
    /// Opens the archive `reader` gives access to, read-only, through a libzip source callback
    /// (`zip_source_function_create`): libzip seeks and reads as it would in a file, and only
    /// the parts it needs are asked for.
    public convenience init(reader: any ZipRandomAccessReader) throws(ZipError) {
        try ZipError.requireLibrary()
        let size = try reader.size()
        // libzip would take nothing at all for an empty archive.
        guard size > 0 else { throw .notAnArchive }
        let context = ZipReaderSourceContext(reader: reader, size: size)
        let userData = Unmanaged.passRetained(context).toOpaque()
        var error = zip_error_t()
        lectern_zip_error_init(&error)
        defer { lectern_zip_error_fini(&error) }
        guard let source = lectern_zip_source_function_create(zipReaderSourceCallback, userData, &error) else {
            Unmanaged<ZipReaderSourceContext>.fromOpaque(userData).release()
            throw .readFailed("libzip cannot create a source (\(String(cString: lectern_zip_error_strerror(&error))))")
        }
        // From here the source owns the context: ZIP_SOURCE_FREE releases it.
        guard let archive = lectern_zip_open_from_source(source, ZIP_RDONLY, &error) else {
            let failure = context.takeFailure()
            let code = lectern_zip_error_code_zip(&error)
            lectern_zip_source_free(source)
            throw failure ?? ZipArchive.openError(code: code)
        }
        self.init(handle: archive, sourceFailure: { context.takeFailure() })
        try checkLayout(size: size) { range throws(ZipError) in [UInt8](try reader.read(range: range)) }
    }
}

/// What the source callback keeps between calls.
final class ZipReaderSourceContext: Sendable {
    let reader: any ZipRandomAccessReader
    let size: UInt64
    private let state = Mutex<(position: UInt64, failure: ZipError?)>((0, nil))
    /// libzip's error record, only touched from the callback (one call at a time).
    nonisolated(unsafe) var error = zip_error_t()

    init(reader: any ZipRandomAccessReader, size: UInt64) {
        self.reader = reader
        self.size = size
        lectern_zip_error_init(&error)
    }

    deinit { lectern_zip_error_fini(&error) }

    var position: UInt64 {
        get { state.withLock { $0.position } }
        set { state.withLock { $0.position = newValue } }
    }

    /// Records why a read failed, for the archive to report instead of libzip's "Read error".
    func fail(_ failure: ZipError) {
        state.withLock { $0.failure = failure }
        lectern_zip_error_set(&error, ZIP_ER_READ, 0)
    }

    /// The last read failure, forgotten once taken.
    func takeFailure() -> ZipError? {
        state.withLock { state in
            defer { state.failure = nil }
            return state.failure
        }
    }

    /// Answers one libzip command.
    func handle(_ data: UnsafeMutableRawPointer?, _ length: zip_uint64_t, _ command: zip_source_cmd_t) -> zip_int64_t {
        switch command {
        case ZIP_SOURCE_OPEN:
            position = 0
            return 0
        case ZIP_SOURCE_READ:
            guard let data else { return -1 }
            let start = position
            let count = min(UInt64(length), size - min(start, size))
            if count == 0 { return 0 }
            let bytes: Data
            do {
                bytes = try reader.read(range: start..<(start + count))
            } catch {
                fail(error)
                return -1
            }
            guard UInt64(bytes.count) == count else {
                fail(.readFailed("\(bytes.count) bytes received where \(count) were asked for at offset \(start)"))
                return -1
            }
            bytes.copyBytes(to: data.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            position = start + count
            return zip_int64_t(count)
        case ZIP_SOURCE_CLOSE:
            return 0
        case ZIP_SOURCE_STAT:
            guard let data, length >= MemoryLayout<zip_stat_t>.size else {
                lectern_zip_error_set(&error, ZIP_ER_INVAL, 0)
                return -1
            }
            let stat = data.assumingMemoryBound(to: zip_stat_t.self)
            lectern_zip_stat_init(stat)
            stat.pointee.size = size
            stat.pointee.valid |= zip_uint64_t(ZIP_STAT_SIZE)
            return zip_int64_t(MemoryLayout<zip_stat_t>.size)
        case ZIP_SOURCE_ERROR:
            guard let data else { return -1 }
            return lectern_zip_error_to_data(&error, data, length)
        case ZIP_SOURCE_SEEK:
            guard let data else { return -1 }
            let offset = lectern_zip_source_seek_compute_offset(position, size, data, length, &error)
            if offset < 0 { return -1 }
            position = UInt64(offset)
            return 0
        case ZIP_SOURCE_TELL:
            return zip_int64_t(position)
        case ZIP_SOURCE_SUPPORTS:
            // ZIP_SOURCE_SUPPORTS_SEEKABLE, spelled out (the C macro is not imported).
            let commands: [zip_source_cmd_t] = [
                ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR,
                ZIP_SOURCE_FREE, ZIP_SOURCE_SEEK, ZIP_SOURCE_TELL, ZIP_SOURCE_SUPPORTS,
            ]
            return commands.reduce(zip_int64_t(0)) { $0 | (zip_int64_t(1) << zip_int64_t($1.rawValue)) }
        default:
            lectern_zip_error_set(&error, ZIP_ER_OPNOTSUPP, 0)
            return -1
        }
    }
}

/// The libzip source callback: forwards to the context, which ZIP_SOURCE_FREE releases.
private let zipReaderSourceCallback: zip_source_callback = { userData, data, length, command in
    guard let userData else { return -1 }
    let unmanaged = Unmanaged<ZipReaderSourceContext>.fromOpaque(userData)
    if command == ZIP_SOURCE_FREE {
        unmanaged.release()
        return 0
    }
    return unmanaged.takeUnretainedValue().handle(data, length, command)
}
