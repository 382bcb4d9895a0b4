import CLecternArchive
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One pass over an archive through libarchive, which reads entries in order only: to go
/// back, open another cursor.
///
/// Not thread-safe: ``StreamingArchive`` uses it under its lock.
final class ArchiveCursor {
    private let handle: OpaquePointer
    /// The index of the entry whose header was read last (-1 before the first).
    private(set) var position = -1
    /// Keeps the bytes of an archive read from memory alive while libarchive reads them.
    private let source: ArchiveSource

    init(source: ArchiveSource) throws(ArchiveError) {
        guard Self.isAvailable else { throw .libraryUnavailable }
        guard let handle = lectern_archive_read_new() else { throw .cannotOpen("out of memory") }
        lectern_archive_read_support_filter_all(handle)
        lectern_archive_read_support_format_rar(handle)
        lectern_archive_read_support_format_rar5(handle)
        lectern_archive_read_support_format_7zip(handle)
        lectern_archive_read_support_format_tar(handle)
        let status = switch source {
        case .file(let path): lectern_archive_read_open_filename(handle, path, 64 << 10)
        case .memory(let bytes): lectern_archive_read_open_memory(handle, bytes.baseAddress, bytes.count)
        }
        guard status == ARCHIVE_OK else {
            let error = Self.error(of: handle)
            lectern_archive_read_free(handle)
            throw error
        }
        self.handle = handle
        self.source = source
    }

    /// Whether libarchive could be loaded; it is loaded (dlopen) the first time this is read,
    /// not at start (#28).
    static let isAvailable: Bool = lectern_archive_load() != 0

    deinit { lectern_archive_read_free(handle) }

    /// The name libarchive gives the format ("RAR5", "7-Zip", "GNU tar format").
    var formatName: String { lectern_archive_format_name(handle).map { String(cString: $0) } ?? "archive" }

    /// Reads the next header; nil at the end of the archive.
    func next() throws(ArchiveError) -> ArchiveEntryInfo? {
        var entry: OpaquePointer?
        let status = lectern_archive_read_next_header(handle, &entry)
        if status == ARCHIVE_EOF { return nil }
        guard status >= ARCHIVE_WARN, let entry else { throw Self.error(of: handle) }
        position += 1
        let name = lectern_archive_entry_pathname_utf8(entry) ?? lectern_archive_entry_pathname(entry)
        var path = name.map { String(cString: $0) } ?? "entry-\(position)"
        while path.hasPrefix("./") { path.removeFirst(2) }
        let type = UInt32(lectern_archive_entry_filetype(entry)) & lectern_archive_ifmt
        let size = lectern_archive_entry_size_is_set(entry) != 0 ? UInt64(max(0, lectern_archive_entry_size(entry))) : nil
        return ArchiveEntryInfo(index: position, path: path, declaredSize: size,
                                isDirectory: type == lectern_archive_ifdir || path.hasSuffix("/"),
                                isEncrypted: lectern_archive_entry_is_encrypted(entry) != 0)
    }

    /// Reads the current entry's data, refusing it past `limit` bytes whatever it declared.
    func readData(limit: UInt64, path: String) throws(ArchiveError) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { lectern_archive_read_data(handle, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            guard count > 0 else { throw Self.error(of: handle) }
            guard UInt64(data.count + count) <= limit else { throw .entryTooLarge(path: path, limit: limit) }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// Passes over the current entry's data (which a solid archive must still decode).
    func skip() throws(ArchiveError) {
        guard lectern_archive_read_data_skip(handle) >= ARCHIVE_WARN else { throw Self.error(of: handle) }
    }

    private static func error(of handle: OpaquePointer) -> ArchiveError {
        let message = lectern_archive_error_string(handle).map { String(cString: $0) } ?? "unknown error"
        let lowered = message.lowercased()
        // libarchive's own flag first; its words only where this version sets no flag (a 7z or
        // RAR whose headers are encrypted fails before any entry is seen, with errno MISC).
        if lectern_archive_read_has_encrypted_entries(handle) == 1
            || lowered.contains("encrypt") || lowered.contains("passphrase") || lowered.contains("password") {
            let name = lectern_archive_format_name(handle).map { String(cString: $0) } ?? ""
            return .encrypted(format: name.contains("7-Zip") ? "7z" : name.contains("RAR") ? "RAR" : "archive")
        }
        // libarchive reads a solid RAR 4 archive's first entry only (RAR 5's solid archives it reads).
        if lowered.contains("solid archive support unavailable") {
            return .unsupported("this is a solid RAR 4 archive, which libarchive (through which Lectern reads RAR) cannot read "
                + "past its first entry; it reads RAR 5 archives, solid or not, and RAR 4 archives that are not solid "
                + "(re-pack the pages as a CBZ, or as a RAR 5 archive)")
        }
        if lectern_archive_errno(handle) == ENOENT || lectern_archive_errno(handle) == EACCES { return .cannotOpen(message) }
        return .damaged(message)
    }
}
