import FoundationEssentials
import Synchronization

/// Creates the real resource on first use; closing closes it only if it was created.
public final class LazyResource: Resource {
    public let link: Link
    private let factory: @Sendable () -> any Resource
    private let created = Mutex<(any Resource)?>(nil)

    public init(link: Link, factory: @escaping @Sendable () -> any Resource) {
        self.link = link
        self.factory = factory
    }

    private var resource: any Resource {
        created.withLock { created in
            if let created { return created }
            let resource = factory()
            created = resource
            return resource
        }
    }

    public var length: ResourceResult<UInt64> { resource.length }
    public func read(range: Range<UInt64>?) -> ResourceResult<Data> { resource.read(range: range) }
    public func close() { created.withLock { $0?.close() } }
}

/// Forwards everything to another resource; subclass points for wrappers that change one
/// aspect (the link, the length…).
open class ProxyResource: Resource, @unchecked Sendable {
    public let resource: any Resource

    public init(_ resource: any Resource) {
        self.resource = resource
    }

    open var link: Link { resource.link }
    open var length: ResourceResult<UInt64> { resource.length }
    open func read(range: Range<UInt64>?) -> ResourceResult<Data> { resource.read(range: range) }
    open func close() { resource.close() }
}
