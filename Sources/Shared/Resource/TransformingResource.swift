import FoundationEssentials
import Synchronization

/// A resource whose whole content is transformed once (e.g. decrypted and inflated) and then
/// served from memory, ranges included. For transformations that can work on ranges (CBC
/// decryption of stored data, font deobfuscation) write a dedicated resource instead.
public final class TransformingResource: Resource {
    public let resource: any Resource
    private let transform: @Sendable (Data) -> ResourceResult<Data>
    private let cache = Mutex<ResourceResult<Data>?>(nil)
    private let linkOverride: Link?

    /// - Parameter link: the link to report, when the transformation changes it.
    public init(_ resource: any Resource, link: Link? = nil,
                transform: @escaping @Sendable (Data) -> ResourceResult<Data>) {
        self.resource = resource
        self.transform = transform
        linkOverride = link
    }

    public var link: Link { linkOverride ?? resource.link }

    private var content: ResourceResult<Data> {
        cache.withLock { cached in
            if let cached { return cached }
            let value = resource.read().flatMap(transform)
            // An unavailable source (offline, closed archive) may come back: try again next time.
            if !value.isTemporaryFailure { cached = value }
            return value
        }
    }

    public var length: ResourceResult<UInt64> { content.map { UInt64($0.count) } }

    public func read(range: Range<UInt64>?) -> ResourceResult<Data> {
        content.map { $0.slice(range) }
    }

    public func close() {
        cache.withLock { $0 = nil }
        resource.close()
    }
}

/// Keeps the whole content of a resource in memory after the first read.
public final class CachingResource: Resource {
    private let base: TransformingResource

    public init(_ resource: any Resource) {
        base = TransformingResource(resource) { .success($0) }
    }

    public var link: Link { base.link }
    public var length: ResourceResult<UInt64> { base.length }
    public func read(range: Range<UInt64>?) -> ResourceResult<Data> { base.read(range: range) }
    public func close() { base.close() }
}
