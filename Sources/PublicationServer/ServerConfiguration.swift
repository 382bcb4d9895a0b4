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

    /// The second address the server listens on, if any.
    var ipv6LoopbackHost: String? {
        alsoIPv6Loopback && host == "127.0.0.1" ? "::1" : nil
    }

    public init(host: String = "127.0.0.1", port: Int = 0, secret: ServerSecret = ServerSecret(),
                maxConcurrentRequests: Int = 16, maxConnections: Int = 256, idleTimeout: Int64 = 30,
                alsoIPv6Loopback: Bool = true) {
        self.host = host
        self.port = port
        self.secret = secret
        self.maxConcurrentRequests = maxConcurrentRequests
        self.maxConnections = maxConnections
        self.idleTimeout = idleTimeout
        self.alsoIPv6Loopback = alsoIPv6Loopback
    }

    /// Whether `host` is a loopback address (the only kind that may serve protected books).
    public var isLoopback: Bool {
        Self.isLoopback(host)
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "::1" || host == "localhost" || host.hasPrefix("127.")
    }
}
