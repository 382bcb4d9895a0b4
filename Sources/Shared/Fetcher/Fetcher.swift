/// Gives access to the resources of a publication. Fetchers form a tree: leaf fetchers read a
/// medium (archive, folder, HTTP), composite fetchers route and transform (Readium Composite
/// Fetcher proposal).
public protocol Fetcher: AnyObject, Sendable {
    /// The resources known to be available, in the medium's order (archive order, else
    /// alphabetical). Not exhaustive: other resources may be reachable.
    var links: [Link] { get }

    /// The resource at `link.href`. Always returns a resource: errors surface when it is read.
    ///
    /// - Parameter parameters: values for a templated href, or extra query parameters for
    ///   HTTP; percent-decoded.
    func get(_ link: Link, parameters: [String: String]) -> any Resource

    /// Releases the medium (file handles, archives, temporary files). Composite fetchers
    /// forward it to every child.
    func close()
}

extension Fetcher {
    /// The resource at `link.href`.
    public func get(_ link: Link) -> any Resource { get(link, parameters: [:]) }

    /// The resource at `href`, with the link from ``links`` when it is listed there.
    public func get(href: String) -> any Resource {
        get(links.first(withHREF: href) ?? Link(href: href))
    }
}

/// A fetcher without resources.
public final class EmptyFetcher: Fetcher {
    public init() {}
    public var links: [Link] { [] }
    public func get(_ link: Link, parameters: [String: String]) -> any Resource {
        FailureResource(link: link, error: .notFound(link.href))
    }
    public func close() {}
}

/// Delegates the creation of resources to a closure.
public final class ProxyFetcher: Fetcher {
    private let closure: @Sendable (Link) -> any Resource

    public init(_ closure: @escaping @Sendable (Link) -> any Resource) {
        self.closure = closure
    }

    /// Serves the strings `closure` returns.
    public convenience init(strings closure: @escaping @Sendable (Link) -> ResourceResult<String>) {
        self.init { link in StringResource(link: link) { closure(link) } }
    }

    public var links: [Link] { [] }

    public func get(_ link: Link, parameters: [String: String]) -> any Resource {
        closure(link.expanded(with: parameters))
    }

    public func close() {}
}
