/// Routes each request to the first child whose predicate accepts the link.
public final class RoutingFetcher: Fetcher {
    /// A child fetcher and the links it answers.
    public struct Route: Sendable {
        public let fetcher: any Fetcher
        public let accepts: @Sendable (Link) -> Bool

        public init(fetcher: any Fetcher, accepts: @escaping @Sendable (Link) -> Bool = { _ in true }) {
            self.fetcher = fetcher
            self.accepts = accepts
        }
    }

    public let routes: [Route]

    public init(routes: [Route]) {
        self.routes = routes
    }

    /// Sends absolute `http(s)` hrefs to `remote` and everything else (package paths) to `local`.
    public convenience init(local: any Fetcher, remote: any Fetcher) {
        self.init(routes: [
            Route(fetcher: remote, accepts: { Href.isHTTP($0.href) }),
            Route(fetcher: local),
        ])
    }

    public var links: [Link] { routes.flatMap { $0.fetcher.links } }

    public func get(_ link: Link, parameters: [String: String]) -> any Resource {
        guard let route = routes.first(where: { $0.accepts(link) }) else {
            return FailureResource(link: link, error: .notFound(link.href))
        }
        return route.fetcher.get(link, parameters: parameters)
    }

    public func close() {
        for route in routes { route.fetcher.close() }
    }
}
