import Foundation
import Shared
import Synchronization

/// A thread-safe counter.
final class Counter: Sendable {
    private let value = Mutex(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// A resource over bytes that counts its reads and closes.
final class SpyResource: Resource {
    let link: Link
    let bytes: Data
    let reads = Counter()
    let closes = Counter()
    private let ranges = Mutex<[Range<UInt64>?]>([])

    init(link: Link = Link(href: "spy"), bytes: Data) {
        self.link = link
        self.bytes = bytes
    }

    convenience init(_ text: String, href: String = "spy") {
        self.init(link: Link(href: href), bytes: Data(text.utf8))
    }

    var requestedRanges: [Range<UInt64>?] { ranges.withLock { $0 } }
    var length: ResourceResult<UInt64> { .success(UInt64(bytes.count)) }

    func read(range: Range<UInt64>?) -> ResourceResult<Data> {
        reads.increment()
        ranges.withLock { $0.append(range) }
        return .success(bytes.slice(range))
    }

    func close() { closes.increment() }
}

/// A fetcher serving fixed strings by href, counting requests and closes.
final class SpyFetcher: Fetcher {
    let name: String
    let contents: [String: String]
    let gets = Counter()
    let closes = Counter()
    private let handedOut = Mutex<[SpyResource]>([])

    init(_ name: String, _ contents: [String: String] = [:]) {
        self.name = name
        self.contents = contents
    }

    var links: [Link] { contents.keys.sorted().map { Link(href: $0) } }

    func get(_ link: Link, parameters: [String: String]) -> any Resource {
        gets.increment()
        guard let text = contents[Href.removingFragment(link.href)] else {
            return FailureResource(link: link, error: .notFound(link.href))
        }
        let resource = SpyResource(link: link, bytes: Data(text.utf8))
        handedOut.withLock { $0.append(resource) }
        return resource
    }

    /// Resources handed out so far.
    var resources: [SpyResource] { handedOut.withLock { $0 } }

    func close() { closes.increment() }
}

extension Result where Success == Data, Failure == ResourceError {
    /// The bytes as UTF-8 text, or nil on failure.
    var text: String? {
        guard case .success(let data) = self else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The error, or nil on success.
    var error: ResourceError? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}

extension Result where Failure == ResourceError {
    var failure: ResourceError? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}

extension ResourceError {
    var isNotFound: Bool { if case .notFound = self { true } else { false } }
    var isForbidden: Bool { if case .forbidden = self { true } else { false } }
    var isUnavailable: Bool { if case .unavailable = self { true } else { false } }
    var isOther: Bool { if case .other = self { true } else { false } }
}

/// Writes `data` to `path`, creating parent folders.
func writeFile(_ path: String, _ data: Data) throws {
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                            withIntermediateDirectories: true)
    try data.write(to: URL(fileURLWithPath: path))
}

func writeFile(_ path: String, _ text: String) throws { try writeFile(path, Data(text.utf8)) }

extension Result {
    /// The success value, or nil.
    var value: Success? {
        guard case .success(let value) = self else { return nil }
        return value
    }
}
