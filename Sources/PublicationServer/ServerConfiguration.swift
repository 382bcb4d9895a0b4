import Shared

/// Where and how a ``PublicationServer`` listens.
public struct ServerConfiguration: Sendable {
    /// The address to bind: `127.0.0.1` by default; anything else exposes the server to the
    /// network, so protected publications are then refused (see ``PublicationServer``).
    public var host: String
    /// The port; 0 picks a free one.
    public var port: Int
    /// The first path segment of every URL.
    public var secret: ServerSecret
    /// How many requests are worked on at once (reading and decrypting resources); further
    /// ones wait their turn.
    public var maxConcurrentRequests: Int
    /// How many connections are accepted at once; further ones wait in the listen backlog.
    public var maxConnections: Int
    /// Seconds after which an idle (or slow) connection is closed.
    public var idleTimeout: Int64
    /// Whether the server also listens on `::1`, at the same port, when `host` is
    /// `127.0.0.1` (so that `localhost` works whichever address a browser tries first); a
    /// machine without IPv6 simply has the IPv4 loopback.
    public var alsoIPv6Loopback: Bool
    /// Resolves `host` for the loopback check and gives the machine's addresses for the
    /// `Host` check of an unspecified address (`0.0.0.0`, `::`).
    public var resolver: HostResolver

    /// The second address the server listens on, if any.
    var ipv6LoopbackHost: String? {
        alsoIPv6Loopback && host == "127.0.0.1" ? "::1" : nil
    }

    public init(host: String = "127.0.0.1", port: Int = 0, secret: ServerSecret = ServerSecret(),
                maxConcurrentRequests: Int = 16, maxConnections: Int = 256, idleTimeout: Int64 = 30,
                alsoIPv6Loopback: Bool = true, resolver: HostResolver = .system) {
        self.host = host
        self.port = port
        self.secret = secret
        self.maxConcurrentRequests = maxConcurrentRequests
        self.maxConnections = maxConnections
        self.idleTimeout = idleTimeout
        self.alsoIPv6Loopback = alsoIPv6Loopback
        self.resolver = resolver
    }

    /// Whether `host` is a loopback address (the only kind that may serve protected books).
    public var isLoopback: Bool {
        Self.isLoopback(host, resolver: resolver)
    }

    /// Whether every address `host` resolves to is a loopback one (and there is one): a name
    /// that merely begins with `127.` may resolve to anything, `0.0.0.0` included.
    static func isLoopback(_ host: String, resolver: HostResolver = .system) -> Bool {
        if let literal = IPAddress(host) { return literal.isLoopback }
        let addresses = resolver.addresses(host)
        return !addresses.isEmpty && addresses.allSatisfy(\.isLoopback)
    }
}
