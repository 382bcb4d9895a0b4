import FoundationEssentials
import Synchronization

/// A fetcher whose child can be recreated, e.g. after a protection rewrote the publication
/// file (an updated LCP license injected after a renewal). Resources handed out before an
/// invalidation follow the new child on their next read.
public final class InvalidatingFetcher: Fetcher {
    private struct State {
        var fetcher: any Fetcher
        var generation: Int
    }

    private let state: Mutex<State>
    private let recreate: @Sendable (any Fetcher) -> any Fetcher

    /// - Parameters:
    ///   - fetcher: the initial child.
    ///   - invalidate: makes the new child from the previous one.
    public init(_ fetcher: any Fetcher, invalidate: @escaping @Sendable (any Fetcher) -> any Fetcher) {
        state = Mutex(State(fetcher: fetcher, generation: 0))
        recreate = invalidate
    }

    /// Recreates the child, then closes the previous one.
    public func invalidate() {
        let old = state.withLock { state -> any Fetcher in
            let old = state.fetcher
            state.fetcher = recreate(old)
            state.generation += 1
            return old
        }
        old.close()
    }

    var current: (fetcher: any Fetcher, generation: Int) {
        state.withLock { ($0.fetcher, $0.generation) }
    }

    public var links: [Link] { current.fetcher.links }

    public func get(_ link: Link, parameters: [String: String]) -> any Resource {
        InvalidatingResource(owner: self, link: link, parameters: parameters)
    }

    public func close() { current.fetcher.close() }
}

/// A resource that asks its ``InvalidatingFetcher`` again after an invalidation.
private final class InvalidatingResource: Resource {
    let owner: InvalidatingFetcher
    let requested: Link
    let parameters: [String: String]
    private let cached = Mutex<(resource: any Resource, generation: Int)?>(nil)

    init(owner: InvalidatingFetcher, link: Link, parameters: [String: String]) {
        self.owner = owner
        requested = link
        self.parameters = parameters
    }

    private var resource: any Resource {
        let (fetcher, generation) = owner.current
        return cached.withLock { cached in
            if let cached, cached.generation == generation { return cached.resource }
            cached?.resource.close()
            let resource = fetcher.get(requested, parameters: parameters)
            cached = (resource, generation)
            return resource
        }
    }

    var link: Link { resource.link }
    var length: ResourceResult<UInt64> { resource.length }
    func read(range: Range<UInt64>?) -> ResourceResult<Data> { resource.read(range: range) }
    func close() { cached.withLock { $0?.resource.close(); $0 = nil } }
}
