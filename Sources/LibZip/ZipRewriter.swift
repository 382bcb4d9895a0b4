import CLecternZip
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Rewrites a ZIP archive with some entries replaced or added, atomically: the new archive is
/// written to a temporary file beside the original, synced, then renamed over it, so a crash
/// leaves either the old file or the new one, never a torn one. A reader that has the old
/// archive open keeps reading the old content (the rename does not touch its inode).
///
/// Used to put a fresh LCP license into a package (`META-INF/license.lcpl`, `license.lcpl`).
public enum ZipRewriter {
    /// One entry to write.
    public struct Replacement: Sendable {
        public var path: String
        public var data: [UInt8]
        /// Stored (uncompressed) rather than deflated.
        public var stored: Bool

        public init(path: String, data: [UInt8], stored: Bool = false) {
            self.path = path
            self.data = data
            self.stored = stored
        }
    }

    /// Replaces (or adds) `replacements` in the archive at `path`.
    ///
    /// - Parameter firstEntry: an entry that must come first and be stored (EPUB and OCF's
    ///   `mimetype`); moved there when the original archive had it elsewhere.
    public static func replaceEntries(in path: String, with replacements: [Replacement],
                                      firstEntry: String? = "mimetype") throws(ZipError) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let base = path.split(separator: "/").last.map(String.init) ?? path
        let temporary = directory + "/." + base + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        do throws(ZipError) {
            try write(source: path, replacements: replacements, firstEntry: firstEntry, to: temporary)
            try syncFile(temporary)
            guard rename(temporary, path) == 0 else {
                throw ZipError.readFailed("cannot replace \(path): \(String(cString: strerror(errno)))")
            }
            syncDirectory(directory)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Writes a copy of `source` with `replacements` to `destination` (which must not exist).
    /// Entries are copied in their order, their data as stored (not recompressed).
    public static func write(source: String, replacements: [Replacement], firstEntry: String?,
                             to destination: String) throws(ZipError) {
        try ZipError.requireLibrary()
        var code: Int32 = 0
        guard let input = lectern_zip_open(source, ZIP_RDONLY, &code) else {
            throw .cannotOpen("\(source) (libzip error \(code))")
        }
        defer { lectern_zip_discard(input) }
        guard let output = lectern_zip_open(destination, ZIP_CREATE | ZIP_EXCL, &code) else {
            throw .cannotOpen("\(destination) (libzip error \(code))")
        }
        var closed = false
        defer { if !closed { lectern_zip_discard(output) } }

        var names: [String] = []
        let count = lectern_zip_get_num_entries(input, 0)
        for index in 0..<max(count, 0) {
            guard let name = lectern_zip_get_name(input, zip_uint64_t(index), zip_flags_t(ZIP_FL_ENC_GUESS)) else { continue }
            names.append(String(cString: name))
        }
        let replaced = Dictionary(replacements.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })

        // Order: the first entry, the original entries in place, then the new ones.
        var order: [String] = []
        if let firstEntry, names.contains(firstEntry) || replaced[firstEntry] != nil { order.append(firstEntry) }
        for name in names where name != firstEntry && !order.contains(name) { order.append(name) }
        for replacement in replacements where !order.contains(replacement.path) { order.append(replacement.path) }

        for name in order {
            if let replacement = replaced[name] {
                try add(replacement.data, named: name, stored: replacement.stored || name == firstEntry, to: output)
            } else if let index = names.firstIndex(of: name) {
                try copy(entry: index, named: name, from: input, to: output, forceStored: name == firstEntry)
            }
        }
        guard lectern_zip_close(output) == 0 else {
            throw .readFailed("cannot write \(destination): \(String(cString: lectern_zip_strerror(output)))")
        }
        closed = true
    }

    private static func add(_ data: [UInt8], named name: String, stored: Bool, to output: OpaquePointer) throws(ZipError) {
        // The source keeps its own copy: the bytes outlive this call until zip_close.
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(data.count, 1), alignment: 1)
        data.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(copy), byteCount: data.count) }
        guard let source = lectern_zip_source_buffer(output, copy, zip_uint64_t(data.count), 1) else {
            copy.deallocate()
            throw .readFailed(String(cString: lectern_zip_strerror(output)))
        }
        let index = lectern_zip_file_add(output, name, source, zip_flags_t(ZIP_FL_ENC_UTF_8))
        guard index >= 0 else {
            lectern_zip_source_free(source)
            throw .readFailed(String(cString: lectern_zip_strerror(output)))
        }
        lectern_zip_set_file_compression(output, zip_uint64_t(index), stored ? ZIP_CM_STORE : ZIP_CM_DEFLATE, 0)
    }

    private static func copy(entry index: Int, named name: String, from input: OpaquePointer, to output: OpaquePointer,
                             forceStored: Bool) throws(ZipError) {
        if name.hasSuffix("/") {
            guard lectern_zip_dir_add(output, name, zip_flags_t(ZIP_FL_ENC_GUESS)) >= 0 else {
                throw .readFailed(String(cString: lectern_zip_strerror(output)))
            }
            return
        }
        var stat = zip_stat_t()
        lectern_zip_stat_init(&stat)
        guard lectern_zip_stat_index(input, zip_uint64_t(index), 0, &stat) == 0 else {
            throw .readFailed(String(cString: lectern_zip_strerror(input)))
        }
        guard let source = lectern_zip_source_zip(output, input, zip_uint64_t(index), 0, 0, -1) else {
            throw .readFailed(String(cString: lectern_zip_strerror(output)))
        }
        let added = lectern_zip_file_add(output, name, source, zip_flags_t(ZIP_FL_ENC_GUESS))
        guard added >= 0 else {
            lectern_zip_source_free(source)
            throw .readFailed(String(cString: lectern_zip_strerror(output)))
        }
        let method = forceStored ? ZIP_CM_STORE : Int32(stat.comp_method)
        lectern_zip_set_file_compression(output, zip_uint64_t(added), method, 0)
        lectern_zip_file_set_mtime(output, zip_uint64_t(added), stat.mtime, 0)
    }

    private static func syncFile(_ path: String) throws(ZipError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .readFailed("cannot open \(path) to sync it") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw .readFailed("cannot sync \(path): \(String(cString: strerror(errno)))") }
    }

    private static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
