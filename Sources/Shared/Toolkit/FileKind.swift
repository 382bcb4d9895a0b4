#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What is at a path, as `stat` (following symlinks) sees it.
public enum FileKind: Sendable {
    case file, directory, other

    /// The kind of `path`, or nil when it cannot be known (see ``lookUp(_:)`` for why).
    public init?(path: String) {
        guard case .success(let kind) = FileKind.lookUp(path) else { return nil }
        self = kind
    }

    /// The kind of `path`, or why `stat` could not tell: nothing there (or a dangling link), or
    /// something else — a folder on the way that may not be searched, a loop of links…
    public static func lookUp(_ path: String) -> Result<FileKind, FileAccessError> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(FileAccessError(code: errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .success(.file)
        case S_IFDIR: return .success(.directory)
        default: return .success(.other)
        }
    }
}

/// Why a path could not be looked at: an `errno` value.
public struct FileAccessError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Int32

    public init(code: Int32) {
        self.code = code
    }

    /// Whether nothing is there: the path or a folder on the way does not exist.
    public var isMissing: Bool { code == ENOENT || code == ENOTDIR }

    /// The system's words for it, lower-cased as in a sentence ("permission denied").
    public var description: String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
