import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Positioned reads of a local file, for what libzip does not expose.
enum FileBytes {
    static func size(of path: String) throws(ZipError) -> UInt64 {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .cannotOpen(String(cString: strerror(errno))) }
        return UInt64(max(0, info.st_size))
    }

    /// The bytes of `range`; fewer than asked is an error.
    static func read(_ range: Range<UInt64>, of path: String) throws(ZipError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let count = Int(range.count)
        var bytes = [UInt8](repeating: 0, count: count)
        var received = 0
        while received < count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + received, count - received, off_t(range.lowerBound) + off_t(received))
            }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { throw .inconsistent("the file is shorter than its central directory says") }
            received += read
        }
        return bytes
    }
}
