#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What is at a path, as `stat` (following symlinks) sees it.
public enum FileKind: Sendable {
    case file, directory, other

    /// The kind of `path`, or nil when nothing is there.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .file
        case S_IFDIR: self = .directory
        default: self = .other
        }
    }
}
