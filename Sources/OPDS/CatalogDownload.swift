import FoundationEssentials
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// Saves a catalog's publication into a folder the person chose, where their own files are.
///
/// The name comes from the catalog (the entry's title), so it may be any file already there:
/// the file is created exclusively (`O_CREAT|O_EXCL`, mode 0600) under the first free name —
/// `Moby_Dick.epub`, else `Moby_Dick (2).epub`, `Moby_Dick (3).epub`… — and only that file is
/// ever removed, when the download fails, is cancelled or passes its ``DownloadLimits``.
public enum CatalogDownload {
    /// Why a download gave no file (nothing is left behind).
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case notHTTP
        case cannotCreate(String)
        case status(Int)
        case tooLarge(Int64)
        case stalled(Double)
        case cancelled
        case http(HTTPError)

        public var description: String {
            switch self {
            case .notHTTP: "only http and https downloads are supported"
            case .cannotCreate(let reason): "cannot create the file: \(reason)"
            case .status(let code): "the server answered HTTP \(code)"
            case .tooLarge(let limit):
                "the download is larger than \(Self.size(limit)) (raise it with --max-size or \(DownloadLimits.maxSizeVariable))"
            case .stalled(let seconds):
                "the download stalled (almost nothing received in \(Self.seconds(seconds)) s)"
            case .cancelled: "cancelled"
            case .http(let error): error.description
            }
        }

        static func size(_ bytes: Int64) -> String {
            if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
            if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
            if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
            return "\(bytes) bytes"
        }

        static func seconds(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
    }

    /// Downloads `url` through `client` into a new file of `directory` named after `name`
    /// (never one that was there); its path. The file is removed when anything fails.
    public static func download(_ url: String, into directory: String, name: String, client: any HTTPClient,
                                limits: DownloadLimits = DownloadLimits(),
                                onProgress: @escaping @Sendable (_ received: Int64, _ expected: Int64?) -> Void = { _, _ in },
                                isCancelled: @escaping @Sendable () -> Bool = { false }) -> Result<String, Failure> {
        guard Href.isHTTP(url) else { return .failure(.notHTTP) }
        let path: String
        do { path = try createFile(named: name, in: directory) } catch { return .failure(error) }
        let watch = DownloadGuard(limits)
        let request = HTTPRequest(url: url, timeout: 0, stallTimeout: limits.stallSeconds)
        let result = client.download(request, to: path, onProgress: { received, expected in
            watch.observe(received: received, expected: expected)
            onProgress(received, expected)
        }, isCancelled: { watch.mustStop() || isCancelled() })
        let failure: Failure
        switch result {
        case .success(let response) where response.isSuccess:
            // The last chunk may have passed the limit after the last check.
            guard let stop = watch.reason else { return .success(path) }
            failure = stop
        case .success(let response):
            failure = .status(response.statusCode)
        case .failure(let error):
            if let stop = watch.reason {
                failure = stop
            } else if case .cancelled = error {
                failure = .cancelled
            } else {
                failure = isCancelled() ? .cancelled : .http(error)
            }
        }
        // Created above, exclusively: this removes nothing but the download's own file.
        unlink(path)
        return .failure(failure)
    }

    /// Creates `name` in `directory`, or the first free `stem (N).ext`, exclusively; its path.
    /// A book like any other file (0644 less the umask): other programs and users may read it.
    public static func createFile(named name: String, in directory: String) throws(Failure) -> String {
        let dot = name.lastIndex(of: ".").flatMap { $0 > name.startIndex ? $0 : nil } ?? name.endIndex
        let stem = name[..<dot], ext = name[dot...]
        for number in 1...10_000 {
            let candidate = directory + "/" + (number == 1 ? name : "\(stem) (\(number))\(ext)")
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            if fd >= 0 {
                close(fd)
                return candidate
            }
            guard errno == EEXIST else { throw .cannotCreate("\(candidate): \(String(cString: strerror(errno)))") }
        }
        throw .cannotCreate("\(directory)/\(name): every free name is taken")
    }
}
