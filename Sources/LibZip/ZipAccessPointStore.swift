import CLecternZlib
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Access points of deflated ZIP entries kept on disk, so that a new process reading the end
/// of a long deflated entry starts near it instead of inflating everything before it.
///
/// One file per entry, named by a hash of its key (the archive's path, size and modification
/// time; the entry's name, CRC-32 and compressed size), which the file repeats and which must
/// match. Files are written whole under a temporary name and renamed; when the directory
/// holds more than ``maxTotalBytes``, the least recently used files go. A file that does not
/// check out is ignored (the read inflates from the start). Never used for encrypted entries:
/// the windows are plain text.
public final class ZipAccessPointStore: Sendable {
    /// The directory holding the files (created on first write).
    public let directory: String
    /// The most the directory may hold.
    public let maxTotalBytes: Int

    static let magic = Array("lectern-zran-1\n\0".utf8)
    /// A file larger than this is not read (64 MiB of text gives 64 points of about 10 KiB).
    static let maxFileBytes = 16 << 20

    public init(directory: String, maxTotalBytes: Int = 64 << 20) {
        self.directory = directory
        self.maxTotalBytes = maxTotalBytes
    }

    private static let current = Mutex<ZipAccessPointStore?>(nil)

    /// The store archives opened by path use unless given one; nil (the default) keeps points in
    /// memory for the archive only. The `lectern` program sets it under its cache directory at start.
    public static var shared: ZipAccessPointStore? {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    /// Identifies an entry of an archive file as it is now.
    struct Key: Sendable, Equatable {
        let text: String

        init?(archivePath: String, entry: ZipEntry) {
            var info = stat()
            guard stat(archivePath, &info) == 0 else { return nil }
            text = "\(archivePath)\n\(info.st_size)\n\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)\n"
                + "\(entry.path)\n\(entry.crc)\n\(entry.compressedSize)\n\(entry.size)"
        }

        /// FNV-1a, 64 bits: a file name, not a security boundary (the file repeats the key).
        var fileName: String {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return String(hash, radix: 16) + ".zran"
        }
    }

    func path(for key: Key) -> String { directory + "/" + key.fileName }

    /// The points stored for `key`, when the file is whole and consistent with `entry`.
    func load(_ key: Key, entry: ZipEntry) -> DeflateAccessIndex? {
        let path = path(for: key)
        guard let bytes = Self.readFile(path),
              let index = ZipAccessPointCoding.decode(bytes, key: key, entry: entry) else { return nil }
        utimes(path, nil)  // least recently used goes first
        return index
    }

    /// Writes the points for `key`, then trims the directory. Failures are ignored: the store
    /// only saves time.
    func save(_ index: DeflateAccessIndex, key: Key, entry: ZipEntry) {
        guard !entry.isEncrypted, !index.points.isEmpty else { return }
        let bytes = ZipAccessPointCoding.encode(index, key: key, entry: entry)
        guard bytes.count <= Self.maxFileBytes else { return }
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let final = path(for: key)
        let temporary = directory + "/.\(key.fileName).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { break }
            written += result
        }
        close(descriptor)
        guard written == bytes.count, rename(temporary, final) == 0 else {
            unlink(temporary)
            return
        }
        trim()
    }

    /// Forgets the points of `key` (one did not check out).
    func remove(_ key: Key) { unlink(path(for: key)) }

    /// Drops the least recently used files beyond ``maxTotalBytes``.
    func trim() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        var files: [(path: String, size: Int, used: Int)] = []
        for name in names where name.hasSuffix(".zran") && !name.hasPrefix(".") {
            var info = stat()
            let path = directory + "/" + name
            guard lstat(path, &info) == 0 else { continue }
            files.append((path, Int(info.st_size), Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)))
        }
        var total = files.reduce(0) { $0 + $1.size }
        for file in files.sorted(by: { $0.used < $1.used }) where total > maxTotalBytes {
            unlink(file.path)
            total -= file.size
        }
    }

    private static func readFile(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              info.st_size > 0, info.st_size <= maxFileBytes else { return nil }
        let count = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: count)
        var received = 0
        while received < count {
            let result = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + received, count - received) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { return nil }
            received += result
        }
        return bytes
    }
}
