import Annotations
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The file operations of ``AnnotationFolderSync``: reading a book's file, finding the
/// conflict copies sync tools make of it, and replacing it atomically.
enum FolderSyncFiles {
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// What a book's file in the folder holds.
    struct Contents {
        var annotations: [Annotation]
        var bookmarks: [SyncedBookmark]
        /// The file as `fstat` saw it before it was read (``stamp(of:)``).
        var stamp: String
    }

    /// What tells one version of a file from another without reading it: device, inode, size,
    /// and modification and change times to the nanosecond. A sync tool replaces a file by a
    /// rename (a new inode) or writes it in place (new times; the change time cannot be set
    /// back), so an equal stamp means the content a merge read is still there.
    static func stamp(of info: stat) -> String {
        "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec):\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
    }

    /// The stamp of the file at `path` now; "absent" when there is none, nil when it cannot be told.
    static func currentStamp(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return errno == ENOENT ? absent : nil }
        return stamp(of: info)
    }

    /// The stamp of a missing file.
    static let absent = "absent"

    /// The annotations and bookmarks of the file at `path`, or why it cannot be read (a
    /// sentence naming it). A file some of whose entries cannot be read counts as unreadable:
    /// replacing it would drop them. The file is stamped and read through one descriptor, so
    /// that the stamp is of what was read (or of an older version, never of a newer one).
    static func read(_ path: String, timings: inout FolderSyncTimings) -> Result<Contents, FolderSyncProblem> {
        let name = String(path.split(separator: "/").last ?? "")
        let read = timings.measure("folder read") { () -> Result<(Data, String), FolderSyncProblem> in
            // Non-blocking: a FIFO in the folder must not hang the sync (fstat then refuses it).
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else { return .failure(FolderSyncProblem("\(name): could not be read; left as it is")) }
            defer { close(descriptor) }
            var info = stat()
            guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                return .failure(FolderSyncProblem("\(name): not a regular file; left as it is"))
            }
            guard Int(info.st_size) <= AnnotationImporter.maximumFileSize else {
                return .failure(FolderSyncProblem("\(name): too large to be a file of annotations (\(info.st_size) bytes); left as it is"))
            }
            guard let data = readAll(descriptor, expected: Int(info.st_size)) else {
                return .failure(FolderSyncProblem("\(name): could not be read; left as it is"))
            }
            return .success((data, FolderSyncFiles.stamp(of: info)))
        }
        let data: Data, stamp: String
        switch read {
        case .success(let result): (data, stamp) = result
        case .failure(let problem): return .failure(problem)
        }
        do throws(AnnotationImportError) {
            let (publication, bookmarks) = try timings.measure("folder decode") { () throws(AnnotationImportError) in
                try AnnotationSyncFile.readWithBookmarks(data)
            }
            if let first = publication.skipped.first {
                return .failure(FolderSyncProblem("\(name): \(publication.skipped.count) entry(ies) could not be read (\(first)); left as it is"))
            }
            return .success(Contents(annotations: publication.annotations, bookmarks: bookmarks, stamp: stamp))
        } catch {
            return .failure(FolderSyncProblem("\(name): \(error.message) Left as it is."))
        }
    }

    /// Everything `descriptor` holds, up to the size limit of an annotation file (a file that
    /// grew past it after its `fstat` is cut there and then fails to decode, as a truncated one).
    static func readAll(_ descriptor: Int32, expected: Int) -> Data? {
        let limit = AnnotationImporter.maximumFileSize + 1
        var bytes = [UInt8](repeating: 0, count: min(max(expected, 0) + 1, limit))
        var count = 0
        while true {
            if count == bytes.count {
                guard bytes.count < limit else { break }
                bytes += [UInt8](repeating: 0, count: min(bytes.count, limit - bytes.count))
            }
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { return nil }
            if got == 0 { break }
            count += got
        }
        return Data(bytes[..<count])
    }

    /// The conflict copies of `name` in `folder`: Syncthing's `STEM.sync-conflict-DATE-TIME-DEVICE.EXT`,
    /// Nextcloud's `STEM (conflicted copy DATE TIME).EXT`, Dropbox's `STEM (NAME's conflicted copy DATE).EXT`;
    /// sorted, so that merges read them in the same order.
    static func conflictCopies(of name: String, in folder: String) -> [String] {
        guard let dot = name.lastIndex(of: ".") else { return [] }
        let stem = name[..<dot], suffix = name[dot...]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { candidate in
            guard candidate != name, candidate.hasPrefix(stem), candidate.hasSuffix(suffix) else { return false }
            let middle = candidate.dropFirst(stem.count).dropLast(suffix.count)
            return middle.hasPrefix(".sync-conflict-") || (middle.hasPrefix(" (") && middle.contains("conflicted copy"))
        }.sorted()
    }

    /// Writes `data` to a temporary file in the same folder, flushes it, then renames it over
    /// `path`: readers see the old file or the new one, never a part. Returns the written file's
    /// stamp (taken through its descriptor after the rename, so never another device's newer
    /// file), or the problem.
    static func writeAtomically(_ data: Data, to path: String) -> Result<String, FolderSyncProblem> {
        let slash = path.lastIndex(of: "/") ?? path.startIndex
        let name = path[path.index(after: slash)...]
        // Unique per write: two syncs of one process (or two processes) never share one.
        let temporary = String(path[..<slash]) + "/.lectern-" + name + "." + UUID().uuidString.lowercased() + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return .failure(FolderSyncProblem("\(name): cannot be written (\(String(cString: strerror(errno))))")) }
        defer { close(descriptor) }
        var problem: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    problem = "\(name): cannot be written (\(String(cString: strerror(errno))))"
                    return
                }
                offset += written
            }
        }
        if problem == nil, fsync(descriptor) != 0 { problem = "\(name): cannot be written (\(String(cString: strerror(errno))))" }
        if problem == nil, rename(temporary, path) != 0 { problem = "\(name): cannot be replaced (\(String(cString: strerror(errno))))" }
        if let problem {
            unlink(temporary)
            return .failure(FolderSyncProblem(problem))
        }
        var info = stat()
        // Unknown stamp: the next sync merges in full.
        return .success(fstat(descriptor, &info) == 0 ? stamp(of: info) : "unknown")
    }
}

/// Why a file of the folder was left as it is: a sentence naming it.
struct FolderSyncProblem: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
