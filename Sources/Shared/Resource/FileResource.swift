import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A resource read from a local file with positioned reads; the file is opened on first use.
// @unchecked: the descriptor and the open error are only touched under `lock` (a PosixLock).
public final class FileResource: Resource, @unchecked Sendable {
    public let link: Link
    public let path: String
    private var descriptor: Int32 = -1
    private var openError: ResourceError?
    private let lock = PosixLock()

    public init(link: Link, path: String) {
        self.link = link
        self.path = path
    }

    deinit { if descriptor >= 0 { _ = systemClose(descriptor) } }

    private func withDescriptor<T>(_ body: (Int32) -> ResourceResult<T>) -> ResourceResult<T> {
        lock.withLock {
            if descriptor < 0, openError == nil {
                // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer
                // forever; what is not a regular file is refused by `length` below.
                let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
                if fd < 0 {
                    openError = errno == ENOENT || errno == ENOTDIR ? .notFound(path)
                        : errno == EACCES ? .forbidden(ResourceFailure("permission denied: \(path)"))
                        : .unavailable(ResourceFailure(String(cString: strerror(errno))))
                } else {
                    descriptor = fd
                }
            }
            if let openError { return .failure(openError) }
            return body(descriptor)
        }
    }

    public var length: ResourceResult<UInt64> {
        withDescriptor { fd in
            var info = stat()
            guard fstat(fd, &info) == 0 else { return .failure(.unavailable(ResourceFailure("cannot stat \(path)"))) }
            guard (info.st_mode & S_IFMT) == S_IFREG else { return .failure(.notFound("\(path) is not a file")) }
            return .success(UInt64(info.st_size))
        }
    }

    public func read(range: Range<UInt64>?) -> ResourceResult<Data> {
        length.flatMap { size in
            let clamped = (range ?? 0..<size).clamped(toLength: size)
            guard clamped.count <= 1 << 31 else { return .failure(.other(ResourceFailure("read of \(clamped.count) bytes refused"))) }
            return withDescriptor { fd in
                var data = Data(count: Int(clamped.count))
                var total = 0
                let failed: Bool = data.withUnsafeMutableBytes { buffer in
                    while total < buffer.count {
                        let n = pread(fd, buffer.baseAddress! + total, buffer.count - total, off_t(clamped.lowerBound) + off_t(total))
                        if n < 0 { if errno == EINTR { continue }; return true }
                        if n == 0 { break }
                        total += n
                    }
                    return false
                }
                if failed { return .failure(.unavailable(ResourceFailure(String(cString: strerror(errno))))) }
                if total < data.count { data.removeSubrange(total...) }
                return .success(data)
            }
        }
    }

    public func close() {
        lock.withLock {
            if descriptor >= 0 { _ = systemClose(descriptor) }
            descriptor = -1
        }
    }
}

private func systemClose(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(fd)
    #else
    Darwin.close(fd)
    #endif
}
