import FoundationEssentials
import LibCrypto
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps remote (`http`/`https`) resources of its child on disk for offline reading, within a
/// size bound (least recently used files are evicted first). Local resources pass through.
///
/// Place it *below* any decrypting transformer: it must only ever store what the server sent,
/// never decrypted content (DESIGN.md §4).
public final class CachingFetcher: Fetcher {
    public let fetcher: any Fetcher
    public let directory: String
    /// The cache never holds more than this many bytes in total.
    public let maxSize: UInt64

    /// - Parameter directory: defaults to `$XDG_CACHE_HOME/lectern/http`.
    public init(_ fetcher: any Fetcher, directory: String? = nil, maxSize: UInt64 = 256 << 20) {
        self.fetcher = fetcher
        self.directory = directory ?? XDGDirectories.cache + "/http"
        self.maxSize = maxSize
    }

    public var links: [Link] { fetcher.links }

    /// A cache that cannot be written costs only the next offline read; it is logged.
    static let log = Diagnostics.logger("lectern.cache")

    public func get(_ link: Link, parameters: [String: String]) -> any Resource {
        let resource = fetcher.get(link, parameters: parameters)
        guard Href.isHTTP(link.href) else { return resource }
        let key = Digest.sha256(Array((link.href + "?" + parameters.keys.sorted().map { "\($0)=\(parameters[$0]!)" }
            .joined(separator: "&")).utf8)).hexString
        return CachedResource(resource: resource, cache: self, key: key)
    }

    public func close() { fetcher.close() }

    func bodyPath(_ key: String) -> String { directory + "/" + key + ".body" }
    func typePath(_ key: String) -> String { directory + "/" + key + ".type" }

    /// Stores `data` under `key` atomically, then trims the cache to its bound.
    func store(_ data: Data, type: MediaType?, key: String) {
        guard UInt64(data.count) <= maxSize else { return }
        guard XDGDirectories.ensure(directory) else {
            Self.log.warning("the offline cache \(directory) cannot be created; nothing is kept for offline reading")
            return
        }
        let temporary = bodyPath(key) + ".partial"
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600])
        else {
            Self.log.warning("the offline cache \(directory) cannot be written; nothing is kept for offline reading")
            return
        }
        // Absent is the usual case: the body is replaced below.
        _ = try? FileManager.default.removeItem(atPath: bodyPath(key))
        guard Self.log.attempt("keeping a download in the offline cache", {
            try FileManager.default.moveItem(atPath: temporary, toPath: bodyPath(key))
        }) != nil else {
            _ = try? FileManager.default.removeItem(atPath: temporary)  // Best effort: a stray .partial is never read.
            return
        }
        if let type {
            _ = FileManager.default.createFile(atPath: typePath(key), contents: Data(type.string.utf8),
                                               attributes: [.posixPermissions: 0o600])
        }
        CachingFetcher.touch(bodyPath(key))
        evict()
    }

    /// Marks a body as just used. The kernel's own timestamps are too coarse (several
    /// milliseconds) to order uses that follow each other closely, so the precise time is set.
    static func touch(_ path: String) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let times = [now, now]
        _ = utimensat(AT_FDCWD, path, times, 0)
    }

    /// Deletes the least recently used bodies until the total fits ``maxSize``.
    func evict() {
        guard let names = Self.log.attempt("listing the offline cache for eviction", {
            try FileManager.default.contentsOfDirectory(atPath: directory)
        }) else { return }
        var files: [(path: String, size: UInt64, used: timespec)] = []
        for name in names where name.hasSuffix(".body") {
            let path = directory + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            files.append((path, UInt64(info.st_size), info.st_mtim))
        }
        var total = files.reduce(0) { $0 + $1.size }
        let oldestFirst = files.sorted { ($0.used.tv_sec, $0.used.tv_nsec) < ($1.used.tv_sec, $1.used.tv_nsec) }
        for file in oldestFirst where total > maxSize {
            // A body that cannot be removed is logged; its type file is best effort (never read alone).
            Self.log.attempt("evicting \(file.path) from the offline cache") { try FileManager.default.removeItem(atPath: file.path) }
            try? FileManager.default.removeItem(atPath: String(file.path.dropLast(5)) + ".type")
            total -= file.size
        }
    }
}

/// A remote resource served from the disk cache when present, and stored there after a
/// whole read. Ranged reads of an uncached resource go to the network and are not stored.
final class CachedResource: Resource {
    let resource: any Resource
    let cache: CachingFetcher
    let key: String

    init(resource: any Resource, cache: CachingFetcher, key: String) {
        self.resource = resource
        self.cache = cache
        self.key = key
    }

    private var cachedFile: FileResource? {
        let path = cache.bodyPath(key)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        // Touch it: eviction is by least recent use.
        CachingFetcher.touch(path)
        return FileResource(link: link, path: path)
    }

    var link: Link {
        var link = resource.link
        if link.mediaType == nil,
           let data = FileManager.default.contents(atPath: cache.typePath(key)) {
            link.mediaType = MediaType(String(decoding: data, as: UTF8.self))
        }
        return link
    }

    var length: ResourceResult<UInt64> {
        if let file = cachedFile { return file.length }
        return resource.length
    }

    func read(range: Range<UInt64>?) -> ResourceResult<Data> {
        if let file = cachedFile {
            defer { file.close() }
            return file.read(range: range)
        }
        guard range == nil else { return resource.read(range: range) }
        let result = resource.read()
        if case .success(let data) = result { cache.store(data, type: resource.link.mediaType, key: key) }
        return result
    }

    func close() { resource.close() }
}
