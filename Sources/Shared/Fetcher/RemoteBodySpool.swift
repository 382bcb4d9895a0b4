import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The whole body of a remote resource whose server ignores `Range`, fetched once into an
/// unnamed file (created in the cache directory and unlinked at once: nothing is left behind,
/// and nothing of it is held in memory). Reads are served from the file.
final class SpooledBody: Sendable {
    let descriptor: Int32
    let length: UInt64
    let mediaType: MediaType?

    init(descriptor: Int32, length: UInt64, mediaType: MediaType?) {
        self.descriptor = descriptor
        self.length = length
        self.mediaType = mediaType
    }

    deinit { close(descriptor) }

    func read(range: Range<UInt64>?) -> ResourceResult<Data> {
        let range = range.map { min($0.lowerBound, length)..<min($0.upperBound, length) } ?? 0..<length
        var data = Data(count: range.count)
        var done = 0
        while done < range.count {
            let count = data.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, range.count - done, off_t(range.lowerBound) + off_t(done))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return .failure(.other(ResourceFailure("the downloaded copy of a remote resource cannot be read"))) }
            done += count
        }
        return .success(data)
    }

    /// Downloads `url` whole with `client` (GET, no `Range`), at most `maxSize` bytes, into a
    /// file of `directory` that is unlinked before the first byte arrives.
    static func download(_ url: String, client: any HTTPClient, directory: String, maxSize: UInt64,
                         stallTimeout: Double) -> Result<SpooledBody, HTTPError> {
        guard XDGDirectories.ensure(directory) else { return .failure(.other("cannot create \(directory)")) }
        var template = Array((directory + "/remote-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return .failure(.other("cannot create a file in \(directory)")) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        let received = Atomic<Int64>(0)
        var request = HTTPRequest(url: url, timeout: 0, maxBodySize: Int(clamping: maxSize))
        request.stallTimeout = stallTimeout
        // The client writes to a path: this process's own name for the unlinked file.
        let result = client.download(request, to: "/proc/self/fd/\(descriptor)", onProgress: { count, _ in
            received.store(count, ordering: .relaxed)
        }, isCancelled: { received.load(ordering: .relaxed) > Int64(clamping: maxSize) })
        let body: (HTTPResponse) -> SpooledBody = { response in
            var info = stat()
            let length = fstat(descriptor, &info) == 0 ? UInt64(info.st_size) : 0
            return SpooledBody(descriptor: descriptor, length: length, mediaType: response.mediaType)
        }
        switch result {
        case .success(let response) where response.isSuccess:
            return .success(body(response))
        case .success(let response):
            close(descriptor)
            return .failure(.other("HTTP \(response.statusCode) from \(url)"))
        case .failure(.cancelled) where received.load(ordering: .relaxed) > Int64(clamping: maxSize):
            close(descriptor)
            return .failure(.tooLarge(Int(clamping: maxSize)))
        case .failure(let error):
            close(descriptor)
            return .failure(error)
        }
    }
}

/// The spooled bodies of one fetcher, by URL, within a total size: the least recently used
/// are dropped first (their files vanish once no resource reads them). A body is downloaded
/// once even when several requests want it at the same time: the others wait for it.
public final class RemoteBodyCache: Sendable {
    /// The total size of the bodies kept between requests.
    public let maxSize: UInt64
    /// Where the unnamed files are made.
    public let directory: String

    private final class Slot: Sendable {
        /// Held during the download, so that a second reader waits for the first's body.
        let body = Mutex<SpooledBody?>(nil)
    }

    private let slots = Mutex<(byURL: [String: Slot], recent: [String])>(([:], []))

    /// - Parameter directory: defaults to `$XDG_CACHE_HOME/lectern/spool`.
    public init(maxSize: UInt64 = 512 << 20, directory: String? = nil) {
        self.maxSize = maxSize
        self.directory = directory ?? XDGDirectories.cache + "/spool"
    }

    /// The body of `url` when it is in the cache (and not being downloaded).
    func cached(_ url: String) -> SpooledBody? {
        let slot = slots.withLock { $0.byURL[url] }
        guard let body = slot?.body.withLockIfAvailable({ $0 }) ?? nil else { return nil }
        used(url)
        return body
    }

    /// The body of `url`, from the cache or downloaded now.
    func body(of url: String, download: (String) -> Result<SpooledBody, HTTPError>) -> Result<SpooledBody, HTTPError> {
        let slot = slots.withLock { slots in
            if let slot = slots.byURL[url] { return slot }
            let slot = Slot()
            slots.byURL[url] = slot
            return slot
        }
        let result = slot.body.withLock { body -> Result<SpooledBody, HTTPError> in
            if let body { return .success(body) }
            let result = download(directory)
            if case .success(let downloaded) = result { body = downloaded }
            return result
        }
        if case .failure = result {
            slots.withLock { if $0.byURL[url] === slot { $0.byURL[url] = nil } }
        } else {
            used(url)
        }
        return result
    }

    /// Marks `url` as just used, then drops the least recently used bodies beyond ``maxSize``.
    private func used(_ url: String) {
        slots.withLock { slots in
            slots.recent.removeAll { $0 == url }
            slots.recent.append(url)
            var total: UInt64 = 0
            for key in slots.recent.reversed() {
                // A slot being downloaded has no body yet: it is never counted nor dropped.
                guard let slot = slots.byURL[key], let length = slot.body.withLockIfAvailable({ $0?.length }) ?? nil else { continue }
                total += length
                if total > maxSize, key != url {
                    slots.byURL[key] = nil
                    slots.recent.removeAll { $0 == key }
                }
            }
        }
    }
}
