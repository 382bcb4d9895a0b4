import FoundationEssentials
import Synchronization

/// A resource serving bytes held in memory or produced once by a closure.
public final class BytesResource: Resource {
    public let link: Link
    private let producer: @Sendable () -> ResourceResult<Data>
    private let cache = Mutex<ResourceResult<Data>?>(nil)

    /// Serves `bytes`.
    public init(link: Link, bytes: Data) {
        self.link = link
        producer = { .success(bytes) }
        cache.withLock { $0 = .success(bytes) }
    }

    /// Serves what `bytes` produces, computed on first use and kept.
    public init(link: Link, bytes: @escaping @Sendable () -> ResourceResult<Data>) {
        self.link = link
        producer = bytes
    }

    private var content: ResourceResult<Data> {
        cache.withLock { cached in
            if let cached { return cached }
            let value = producer()
            if !value.isTemporaryFailure { cached = value }
            return value
        }
    }

    public var length: ResourceResult<UInt64> { content.map { UInt64($0.count) } }

    public func read(range: Range<UInt64>?) -> ResourceResult<Data> {
        content.map { $0.slice(range) }
    }

    public func close() {}
}

/// A resource serving a string, as UTF-8.
public final class StringResource: Resource {
    private let base: BytesResource

    public init(link: Link, string: String) {
        base = BytesResource(link: link, bytes: Data(string.utf8))
    }

    /// Serves what `string` produces, computed on first use.
    public init(link: Link, string: @escaping @Sendable () -> ResourceResult<String>) {
        base = BytesResource(link: link) { string().map { Data($0.utf8) } }
    }

    public var link: Link { base.link }
    public var length: ResourceResult<UInt64> { base.length }
    public func read(range: Range<UInt64>?) -> ResourceResult<Data> { base.read(range: range) }
    public func close() {}
}

/// A resource that always fails with the same error.
public final class FailureResource: Resource {
    public let link: Link
    public let error: ResourceError

    public init(link: Link, error: ResourceError) {
        self.link = link
        self.error = error
    }

    public var length: ResourceResult<UInt64> { .failure(error) }
    public func read(range: Range<UInt64>?) -> ResourceResult<Data> { .failure(error) }
    public func close() {}
}
