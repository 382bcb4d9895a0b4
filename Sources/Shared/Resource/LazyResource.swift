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

/// A wrapper that changes one aspect of another resource (its content, link or length): what
/// it does not implement is forwarded. A protocol rather than a base class, so that each
/// wrapper's `Sendable` conformance is checked by the compiler.
public protocol ForwardingResource: Resource {
    /// The resource wrapped.
    var resource: any Resource { get }
}

extension ForwardingResource {
    public var link: Link { resource.link }
    public var length: ResourceResult<UInt64> { resource.length }
    public func read(range: Range<UInt64>?) -> ResourceResult<Data> { resource.read(range: range) }
    public func close() { resource.close() }
}
