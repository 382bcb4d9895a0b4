import CLecternZip
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A ZIP archive read through libzip: random access to entries, stored and deflated, clear or
/// encrypted (traditional PKWARE and the WinZip AES variants libzip handles).
///
/// Thread-safe: every libzip call happens under one lock, since a `zip_t` is not reentrant.
public final class ZipArchive: Sendable {
    /// Entries in central-directory order.
    public let entries: [ZipEntry]
    private let byPath: [String: Int]
    let state: Mutex<State>
    /// For an archive read through a ``ZipRandomAccessReader``: why its last read failed
    /// (libzip itself only says "Read error").
    private let sourceFailure: (@Sendable () -> ZipError?)?
    /// The file, for an archive opened by path: it keys the access points kept in `pointStore`.
    let archivePath: String?
    /// Where access points of long deflated entries persist (nil: in memory only).
    let pointStore: ZipAccessPointStore?

    /// An entry read as a whole may not exceed this size in memory.
    public static let maxWholeEntrySize: UInt64 = 512 << 20
    /// Reads up to this size are allocated at once and read in place.
    static let directReadLimit = 16 << 20

    /// The compressed entries of an archive may expand to this many times the archive's
    /// size in all, or ``minInflationAllowance``, whichever is larger: text deflates about
    /// tenfold, a zip bomb a thousandfold and more.
    public static let maxInflationRatio: UInt64 = 100
    /// What the compressed entries of any archive may expand to in all.
    public static let minInflationAllowance: UInt64 = 1 << 30

    /// Opens the archive at `path`, read-only. Access points of its long deflated entries
    /// persist in `accessPoints` (by default ``ZipAccessPointStore/shared``).
    ///
    /// - Throws: ``ZipError/inconsistent(_:)`` when entries overlap (a zip bomb: every entry
    ///   inflating one shared stream), ``ZipError/tooMuchToInflate(_:limit:)`` beyond the
    ///   inflation allowance, and as libzip reports.
    public convenience init(path: String, accessPoints: ZipAccessPointStore? = ZipAccessPointStore.shared) throws(ZipError) {
        try ZipError.requireLibrary()
        var code: Int32 = 0
        guard let archive = lectern_zip_open(path, ZIP_RDONLY, &code) else {
            throw ZipArchive.openError(code: code)
        }
        self.init(handle: archive, sourceFailure: nil, archivePath: path, pointStore: accessPoints)
        try checkLayout(size: try FileBytes.size(of: path)) { range throws(ZipError) in
            try FileBytes.read(range, of: path)
        }
    }

    /// Deflate expands data at most about 1032 times: an entry declaring more is a lie that
    /// reading it catches (it ends early), after inflating no more than this.
    static let maxDeflateRatio: UInt64 = 1032

    /// The bytes reading `entry` whole may inflate: none when stored, at most what Deflate can
    /// produce from its compressed size, else what it declares.
    static func inflationCost(of entry: ZipEntry) -> UInt64 {
        let declared = min(entry.size, UInt64(1) << 48)
        switch entry.compressionMethod {
        case 0: return 0
        case 8: return min(declared, min(entry.compressedSize, UInt64(1) << 48) * maxDeflateRatio + 1024)
        default: return declared
        }
    }

    /// Refuses archives whose entries overlap or would inflate beyond the allowance.
    func checkLayout(size: UInt64, read: (Range<UInt64>) throws(ZipError) -> [UInt8]) throws(ZipError) {
        let inflated = entries.reduce(UInt64(0)) { $0 &+ Self.inflationCost(of: $1) }
        let (scaled, overflow) = size.multipliedReportingOverflow(by: Self.maxInflationRatio)
        let allowance = overflow ? UInt64.max : max(scaled, Self.minInflationAllowance)
        guard inflated <= allowance else { throw .tooMuchToInflate(inflated, limit: allowance) }
        guard entries.count > 1 else { return }
        let layout = try ZipDataLayout(size: size, read: read)
        if let (first, second) = layout.firstOverlap() {
            func name(_ span: ZipDataLayout.Span) -> String {
                span.index < entries.count ? entries[span.index].path : "#\(span.index)"
            }
            throw .inconsistent("entries \(name(first)) and \(name(second)) overlap: a zip bomb or a damaged archive")
        }
    }

    /// Takes ownership of an open libzip archive and reads its central directory.
    init(handle archive: OpaquePointer, sourceFailure: (@Sendable () -> ZipError?)?,
         archivePath: String? = nil, pointStore: ZipAccessPointStore? = nil) {
        let count = lectern_zip_get_num_entries(archive, 0)
        var entries: [ZipEntry] = []
        entries.reserveCapacity(Int(max(count, 0)))
        var byPath: [String: Int] = [:]
        for index in 0..<max(count, 0) {
            var stat = zip_stat_t()
            lectern_zip_stat_init(&stat)
            guard lectern_zip_stat_index(archive, zip_uint64_t(index), zip_flags_t(ZIP_FL_ENC_GUESS), &stat) == 0,
                  let name = stat.name else { continue }
            let entry = ZipEntry(
                index: Int(index), path: String(cString: name), size: stat.size,
                compressedSize: stat.comp_size, compressionMethod: UInt16(truncatingIfNeeded: stat.comp_method),
                encryptionMethod: stat.encryption_method, crc: stat.crc)
            if byPath[entry.path] == nil { byPath[entry.path] = entries.count }
            entries.append(entry)
        }
        self.entries = entries
        self.byPath = byPath
        self.state = Mutex(State(archive: archive))
        self.sourceFailure = sourceFailure
        self.archivePath = archivePath
        self.pointStore = archivePath == nil ? nil : pointStore
    }

    deinit { close() }

    /// The entry with this exact name.
    public func entry(at path: String) -> ZipEntry? {
        byPath[path].map { entries[$0] }
    }

    /// Sets the password used for encrypted entries (nil removes it).
    public func setPassword(_ password: String?) {
        setPassword(bytes: password.map { Array($0.utf8) })
    }

    /// Sets the password as bytes (nil removes it): traditional PKWARE encryption keys on the
    /// bytes a tool wrote, which may be a legacy code page rather than UTF-8. libzip takes a
    /// C string, so the password ends at a NUL byte.
    public func setPassword(bytes: [UInt8]?) {
        state.withLock { state in
            guard let archive = state.archive else { return }
            state.closeCursors()
            guard let bytes else {
                lectern_zip_set_default_password(archive, nil)
                return
            }
            lectern_zip_set_default_password(archive, bytes.map { CChar(bitPattern: $0) } + [0])
        }
    }

    /// Closes the archive; later reads fail with ``ZipError/closed``.
    public func close() {
        state.withLock { state in
            state.closeCursors()
            state.closeInflatingCursors()
            if let archive = state.archive { lectern_zip_discard(archive) }
            state.archive = nil
        }
    }

    /// Reads the whole entry, checking its CRC and refusing more than ``maxWholeEntrySize``
    /// or more bytes than it declares.
    public func read(_ entry: ZipEntry) throws(ZipError) -> Data {
        guard entry.size <= Self.maxWholeEntrySize else { throw .tooLarge(entry.size) }
        if entry.isStored && !entry.isEncrypted { try Self.checkStoredSizes(entry) }
        do {
            if Self.usesAccessPoints(entry) { return try readWholeInflating(entry) }
            return try state.withLock { state throws(ZipError) in
                let file = try state.open(entry, flags: 0)
                defer { lectern_zip_fclose(file) }
                let output = try ZipArchive.readExactly(file, count: Int(entry.size))
                if !entry.isStored { state.inflatedBytes += UInt64(output.count) }
                if output.count < Int(entry.size) { throw .inconsistent("\(entry.path) is shorter than declared") }
                // Reading past the declared end makes libzip verify the CRC, and catches an entry
                // that inflates to more than it declares.
                var probe: UInt8 = 0
                let extra = lectern_zip_fread(file, &probe, 1)
                if extra < 0 { throw ZipArchive.fileError(file) }
                if extra > 0 { throw .largerThanDeclared(entry.size) }
                return output
            }
        } catch {
            throw sourceFailure?() ?? ZipArchive.dataError(error, of: entry)
        }
    }

    /// Reads `range` of the entry's uncompressed bytes, clamped to its size.
    ///
    /// Stored clear entries are read at the offset without touching the bytes before it; long
    /// deflated clear entries from the last access point before it (see
    /// ``ZipAccessPointStore``); other compressed or encrypted entries forward from a cached
    /// cursor.
    public func read(_ entry: ZipEntry, range: Range<UInt64>) throws(ZipError) -> Data {
        let upper = min(range.upperBound, entry.size)
        let lower = min(range.lowerBound, upper)
        guard lower < upper else { return Data() }
        guard upper - lower <= Self.maxWholeEntrySize else { throw .tooLarge(upper - lower) }
        do {
            if Self.usesAccessPoints(entry) { return try readInflating(entry, lower..<upper) }
            return try state.withLock { state throws(ZipError) in
                if entry.isStored && !entry.isEncrypted {
                    // libzip 1.7 seeks through a wild pointer in a stored entry that declares
                    // more bytes than it holds.
                    try Self.checkStoredSizes(entry)
                    let file = try state.open(entry, flags: 0)
                    defer { lectern_zip_fclose(file) }
                    guard lectern_zip_fseek(file, zip_int64_t(lower), SEEK_SET) == 0 else { throw ZipArchive.fileError(file) }
                    return try ZipArchive.readExactly(file, count: Int(upper - lower))
                }
                let cursor = try state.cursor(for: entry, at: lower)
                do throws(ZipError) {
                    if cursor.position < lower {
                        if !entry.isStored { state.inflatedBytes += lower - cursor.position }
                        try ZipArchive.skip(cursor.file, count: lower - cursor.position)
                        cursor.position = lower
                    }
                    let bytes = try ZipArchive.readExactly(cursor.file, count: Int(upper - lower))
                    if !entry.isStored { state.inflatedBytes += UInt64(bytes.count) }
                    cursor.position += UInt64(bytes.count)
                    return bytes
                } catch {
                    // The cursor's position is unknown now: never reuse it.
                    state.dropCursor(cursor)
                    throw error
                }
            }
        } catch {
            throw sourceFailure?() ?? ZipArchive.dataError(error, of: entry)
        }
    }

    /// A stored, clear entry holds exactly the bytes it declares: sizes that differ are a
    /// damaged or hostile archive.
    static func checkStoredSizes(_ entry: ZipEntry) throws(ZipError) {
        guard entry.size == entry.compressedSize else {
            throw .inconsistent("\(entry.path) is stored with \(entry.compressedSize) bytes but declares \(entry.size)")
        }
    }

    /// The error to report for a failed read of `entry`'s data. Traditional PKWARE checks the
    /// password with one byte, so a wrong password passes one time in 256 and then yields
    /// garbage that fails to inflate, to match its size or its CRC: for an encrypted entry all
    /// of these mean "wrong password or damaged archive".
    static func dataError(_ error: ZipError, of entry: ZipEntry) -> ZipError {
        guard entry.isEncrypted else { return error }
        switch error {
        case .inconsistent, .tooLarge, .largerThanDeclared, .readFailed: return .checksumMismatch
        default: return error
        }
    }

    /// Reads the entry's bytes as stored in the archive, still compressed and encrypted
    /// (for WinZip AES entries this includes the salt, verifier and authentication code).
    public func readRaw(_ entry: ZipEntry) throws(ZipError) -> Data {
        guard entry.compressedSize <= Self.maxWholeEntrySize else { throw .tooLarge(entry.compressedSize) }
        return try state.withLock { state throws(ZipError) in
            let file = try state.open(entry, flags: zip_flags_t(ZIP_FL_ENCRYPTED))
            defer { lectern_zip_fclose(file) }
            return try ZipArchive.readExactly(file, count: Int(entry.compressedSize))
        }
    }

    /// The data of an extra field of the entry (central or local), e.g. 0x5455 (extended
    /// timestamp). libzip consumes and hides the fields it interprets itself — ZIP64 (0x0001),
    /// Info-ZIP UTF-8 name and comment (0x7075, 0x6375) and WinZip AES (0x9901) — so those are
    /// never returned: for a WinZip AES entry, the key strength is in ``ZipEntry/encryptionMethod``
    /// (0x0101–0x0103), the real compression method in ``ZipEntry/compressionMethod``, and an
    /// AE-2 entry has a CRC of 0.
    public func extraField(_ id: UInt16, of entry: ZipEntry) -> [UInt8]? {
        state.withLock { state -> [UInt8]? in
            guard let archive = state.archive else { return nil }
            var length: zip_uint16_t = 0
            let flags = zip_flags_t(ZIP_FL_CENTRAL | ZIP_FL_LOCAL)
            guard let data = lectern_zip_file_extra_field_get_by_id(archive, zip_uint64_t(entry.index), id, 0, &length, flags)
            else { return nil }
            return Array(UnsafeBufferPointer(start: data, count: Int(length)))
        }
    }

    // MARK: - libzip plumbing

    /// Reads up to `count` bytes (fewer at the end of the entry). The buffer grows with what
    /// actually arrives, so a size that an archive merely declares is never allocated up front
    /// beyond ``directReadLimit``; reads up to that size go straight into their buffer (no
    /// intermediate copy: large resources are read in chunks of this order).
    private static func readExactly(_ file: OpaquePointer, count: Int) throws(ZipError) -> Data {
        if count > 0, count <= directReadLimit, let buffer = malloc(count) {
            var received = 0
            while received < count {
                let read = lectern_zip_fread(file, buffer + received, zip_uint64_t(count - received))
                if read < 0 {
                    free(buffer)
                    throw fileError(file)
                }
                if read == 0 { break }
                received += Int(read)
            }
            return Data(bytesNoCopy: buffer, count: received, deallocator: .free)
        }
        var output = Data()
        output.reserveCapacity(min(count, 1 << 20))
        var chunk = [UInt8](repeating: 0, count: min(max(count, 1), 256 << 10))
        while output.count < count {
            let want = min(chunk.count, count - output.count)
            let read = lectern_zip_fread(file, &chunk, zip_uint64_t(want))
            if read < 0 { throw fileError(file) }
            if read == 0 { break }
            output.append(contentsOf: chunk[0..<Int(read)])
        }
        return output
    }

    private static func skip(_ file: OpaquePointer, count: UInt64) throws(ZipError) {
        var remaining = count
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        while remaining > 0 {
            let want = min(remaining, UInt64(scratch.count))
            let read = lectern_zip_fread(file, &scratch, want)
            if read < 0 { throw fileError(file) }
            if read == 0 { return }
            remaining -= UInt64(read)
        }
    }

    static func fileError(_ file: OpaquePointer) -> ZipError {
        error(from: lectern_zip_file_get_error(file))
    }

    static func error(from error: UnsafeMutablePointer<zip_error_t>?) -> ZipError {
        guard let error else { return .readFailed("unknown error") }
        let code = lectern_zip_error_code_zip(error)
        switch code {
        case ZIP_ER_NOPASSWD: return .passwordRequired
        case ZIP_ER_WRONGPASSWD: return .wrongPassword
        case ZIP_ER_CRC: return .checksumMismatch
        case ZIP_ER_INCONS, ZIP_ER_NOZIP, ZIP_ER_ZLIB, ZIP_ER_COMPRESSED_DATA:
            return .inconsistent(String(cString: lectern_zip_error_strerror(error)))
        case ZIP_ER_COMPNOTSUPP: return .unsupportedCompression(0)
        case ZIP_ER_ENCRNOTSUPP: return .unsupportedEncryption(0)
        default: return .readFailed(String(cString: lectern_zip_error_strerror(error)))
        }
    }

    static func openError(code: Int32) -> ZipError {
        var error = zip_error_t()
        lectern_zip_error_init_with_code(&error, code)
        defer { lectern_zip_error_fini(&error) }
        let message = String(cString: lectern_zip_error_strerror(&error))
        switch code {
        case ZIP_ER_NOZIP: return .notAnArchive
        case ZIP_ER_NOENT, ZIP_ER_OPEN, ZIP_ER_READ: return .cannotOpen(message)
        default: return .inconsistent(message)
        }
    }
}
