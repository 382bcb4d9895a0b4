import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Shared

/// Serves opened publications over HTTP to a browser (the `PublicationServer` of the Readium
/// Composite Fetcher proposal): under `/SECRET/pub/ID/`, the manifest, every resource read
/// through the publication's Fetcher, and the content-protection routes.
///
/// Every publication has its own origin — its own port and its own secret — so that nothing
/// one book's documents load can reach another book (docs/SERVER-SECURITY.md). Safety, for
/// a server holding decrypted books: loopback only unless configured otherwise, and then
/// protected publications are refused; the secret first in every path (404 without it); the
/// `Host` header checked (DNS rebinding); no CORS; `nosniff`; a Content-Security-Policy on
/// every response (``ContentPolicy``); book documents without script, in a sandboxed frame;
/// the rights routes only for the reader page (``RightsGuard``); paths that would leave a
/// publication are 404; request header limits; idle connections closed; at most
/// ``ServerConfiguration/maxConcurrentRequests`` requests worked on at once per publication
/// and ``ServerConfiguration/maxConnections`` connections.
public final class PublicationServer: Sendable {
    public let configuration: ServerConfiguration
    /// One per publication, in the order given: each listens on its own port.
    private let responders: [PublicationResponder]

    /// - Throws: ``PublicationServerError/protectedOffLoopback`` when a protected publication
    ///   would be served on a non-loopback address.
    public init(publications: [ServedPublication], configuration: ServerConfiguration = ServerConfiguration())
        throws(PublicationServerError) {
        if !configuration.isLoopback, let protected = publications.first(where: { $0.publication.isProtected }) {
            throw .protectedOffLoopback(id: protected.id)
        }
        self.configuration = configuration
        var seen: Set<String> = []
        // The first publication keeps the configured secret; every other one has its own,
        // so that knowing one book's URLs says nothing of another's.
        responders = publications.filter { seen.insert($0.id).inserted }.enumerated().map { index, served in
            PublicationResponder(secret: index == 0 ? configuration.secret : ServerSecret(), served: served,
                                 limit: ConcurrencyLimit(configuration.maxConcurrentRequests))
        }
    }

    /// Where the server listens, once it does: one origin per publication.
    public struct Listening: Sendable {
        /// One publication's origin: its port and its secret.
        public struct Address: Sendable {
            public let port: Int
            public let secret: ServerSecret
        }

        public let host: String
        /// By publication id.
        public let addresses: [String: Address]
        /// The port of the first publication.
        public let port: Int

        /// `http://HOST:PORT` of the publication `id` (an IPv6 address in brackets).
        public func origin(id: String) -> String {
            "http://" + (host.contains(":") ? "[\(host)]" : host) + ":\(addresses[id]?.port ?? 0)"
        }

        /// The reader page of the publication `id`; its manifest is this URL + `manifest.json`.
        public func readerURL(id: String) -> String {
            origin(id: id) + "/\(addresses[id]?.secret.description ?? "")/pub/\(id)/"
        }

        /// The reader page of the publication `id` opened at `href` (a reading-order href,
        /// with its fragment), in the URL's fragment as the page's script reads it.
        public func readerURL(id: String, at href: String) -> String {
            readerURL(id: id) + "#" + Self.fragment(href)
        }

        /// `href` as JavaScript's `encodeURIComponent` encodes it.
        static func fragment(_ href: String) -> String {
            var fragment = ""
            for byte in href.utf8 {
                if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-_.!~*'()".utf8.contains(byte) {
                    fragment.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    let hex = String(byte, radix: 16, uppercase: true)
                    fragment += "%" + (hex.count == 1 ? "0" + hex : hex)
                }
            }
            return fragment
        }
    }

    /// Runs until cancelled or, with `handlingSignals`, until SIGINT or SIGTERM; then stops
    /// accepting, lets the requests under way finish, and returns. Each publication listens
    /// on its own port: the configured one (0 picks one) for the first, the next ones after
    /// it (or picked ones). On the default loopback address each listens on `127.0.0.1` and,
    /// at the same port, on `::1` when the machine has it.
    /// - Parameter onListening: called once every socket listens.
    public func run(handlingSignals: Bool, onListening: @escaping @Sendable (Listening) async -> Void) async throws {
        let configuration = configuration
        try await withThrowingTaskGroup(of: Void.self) { group in
            var addresses: [String: Listening.Address] = [:]
            var firstPort = 0
            for (index, responder) in responders.enumerated() {
                let wanted = configuration.port == 0 ? 0 : configuration.port + index
                guard let port = await Self.listen(responder, configuration: configuration, port: wanted,
                                                   handlingSignals: handlingSignals, in: &group) else {
                    // An address could not be bound: its error ends the run.
                    group.cancelAll()
                    try await group.waitForAll()
                    return
                }
                if index == 0 { firstPort = port }
                addresses[responder.id] = Listening.Address(port: port, secret: responder.secret)
                responder.listening.set(host: configuration.host, port: port,
                                        origin: "http://" + (configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host)
                                            + ":\(port)")
            }
            await onListening(Listening(host: configuration.host, addresses: addresses, port: firstPort))
            try await group.waitForAll()
        }
    }

    /// Starts `responder`'s applications (the host, and `::1` at the same port when asked)
    /// in `group`; the port bound, nil when the host's could not be.
    private static func listen(_ responder: PublicationResponder, configuration: ServerConfiguration, port: Int,
                               handlingSignals: Bool, in group: inout ThrowingTaskGroup<Void, any Error>) async -> Int? {
        // The port is known once the first socket listens (port 0 picks one); the second
        // address is bound to that same port.
        let (ports, portReady) = AsyncStream.makeStream(of: Int.self)
        group.addTask {
            defer { portReady.finish() }
            try await Self.application(responder: responder, configuration: configuration, host: configuration.host,
                                       port: port) { port in
                portReady.yield(port)
            }.run(handlingSignals: handlingSignals)
        }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next() else { return nil }
        if let second = configuration.ipv6LoopbackHost {
            let (ready, boundReady) = AsyncStream.makeStream(of: Bool.self)
            group.addTask {
                defer { boundReady.finish() }
                do {
                    try await Self.application(responder: responder, configuration: configuration, host: second,
                                               port: bound) { _ in boundReady.yield(true) }
                        .run(handlingSignals: handlingSignals)
                } catch {
                    // No IPv6 on this machine (or the port is taken there): IPv4 only.
                    boundReady.yield(false)
                }
            }
            var readyIterator = ready.makeAsyncIterator()
            _ = await readyIterator.next()
        }
        return bound
    }

    /// A URL that opens the reader page of the publication `id` at `href` once, within a
    /// minute, and holds no lasting secret: what to hand a browser on its command line, which
    /// every local user can read. Nil until the server listens.
    public func oneTimeURL(id: String, at href: String) -> String? {
        guard let responder = responders.first(where: { $0.id == id }), !responder.listening.origin.isEmpty else { return nil }
        return responder.listening.origin + PublicationResponder.openingPrefix + responder.openingCodes.mint()
            + "#" + Listening.fragment(href)
    }

    /// The Hummingbird application listening on `host`:`port`.
    private static func application(responder: PublicationResponder, configuration: ServerConfiguration, host: String, port: Int,
                                    onRunning: @escaping @Sendable (Int) async -> Void) -> Application<PublicationResponder> {
        Application(
            responder: responder,
            server: .http1(configuration: .init(
                additionalChannelHandlers: [RequestHeadTimeout()],
                idleTimeout: .seconds(configuration.idleTimeout),
                httpDecoderConfiguration: .init(maxHeaderFieldSize: 32 * 1024, maxHeaderListSize: 64 * 1024, maxHeaderFieldCount: 100)
            )),
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: port),
                serverName: nil,
                availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections)
            ),
            onServerRunning: { channel in
                await onRunning(channel.localAddress?.port ?? port)
            },
            // Libraries never print: the server's own log goes nowhere.
            logger: Logger(label: "lectern.publication-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
    }
}

extension Application {
    fileprivate func run(handlingSignals: Bool) async throws {
        if handlingSignals {
            try await runService()
        } else {
            try await run()
        }
    }
}

/// Why a publication server cannot start.
public enum PublicationServerError: Error, Sendable, CustomStringConvertible {
    /// A protected publication would be served decrypted off this machine.
    case protectedOffLoopback(id: String)

    public var description: String {
        switch self {
        case .protectedOffLoopback:
            "a protected publication is never served decrypted on a non-loopback address"
        }
    }
}
