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
    }

    /// The annotations and bookmarks of the file at `path`, or why it cannot be read (a
    /// sentence naming it). A file some of whose entries cannot be read counts as unreadable:
    /// replacing it would drop them.
    static func read(_ path: String) -> Result<Contents, FolderSyncProblem> {
        let name = String(path.split(separator: "/").last ?? "")
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return .failure(FolderSyncProblem("\(name): not a regular file; left as it is"))
        }
        guard Int(info.st_size) <= AnnotationImporter.maximumFileSize else {
            return .failure(FolderSyncProblem("\(name): too large to be a file of annotations (\(info.st_size) bytes); left as it is"))
        }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
            return .failure(FolderSyncProblem("\(name): could not be read; left as it is"))
        }
        do throws(AnnotationImportError) {
            let (publication, bookmarks) = try AnnotationSyncFile.readWithBookmarks(data)
            if let first = publication.skipped.first {
                return .failure(FolderSyncProblem("\(name): \(publication.skipped.count) entry(ies) could not be read (\(first)); left as it is"))
            }
            return .success(Contents(annotations: publication.annotations, bookmarks: bookmarks))
        } catch {
            return .failure(FolderSyncProblem("\(name): \(error.message) Left as it is."))
        }
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
    /// `path`: readers see the old file or the new one, never a part. Returns the problem, if any.
    static func writeAtomically(_ data: Data, to path: String) -> String? {
        let slash = path.lastIndex(of: "/") ?? path.startIndex
        let name = path[path.index(after: slash)...]
        // Unique per write: two syncs of one process (or two processes) never share one.
        let temporary = String(path[..<slash]) + "/.lectern-" + name + "." + UUID().uuidString.lowercased() + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return "\(name): cannot be written (\(String(cString: strerror(errno))))" }
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
        close(descriptor)
        if problem == nil, rename(temporary, path) != 0 { problem = "\(name): cannot be replaced (\(String(cString: strerror(errno))))" }
        if problem != nil { unlink(temporary) }
        return problem
    }
}

/// Why a file of the folder was left as it is: a sentence naming it.
struct FolderSyncProblem: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
