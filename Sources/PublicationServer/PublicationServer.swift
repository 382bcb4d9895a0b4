import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Shared

/// Serves opened publications over HTTP to a browser (the `PublicationServer` of the Readium
/// Composite Fetcher proposal): under `/SECRET/pub/ID/`, the manifest, every resource read
/// through the publication's Fetcher, and the content-protection routes.
///
/// Safety, for a server holding decrypted books: loopback only unless configured otherwise,
/// and then protected publications are refused; a per-run random secret first in every path
/// (404 without it); the `Host` header checked (DNS rebinding); no CORS; `nosniff`; paths
/// that would leave a publication are 404; request header limits; idle connections closed;
/// at most ``ServerConfiguration/maxConcurrentRequests`` requests worked on at once and
/// ``ServerConfiguration/maxConnections`` connections.
public final class PublicationServer: Sendable {
    public let configuration: ServerConfiguration
    private let responder: PublicationResponder

    /// - Throws: ``PublicationServerError/protectedOffLoopback`` when a protected publication
    ///   would be served on a non-loopback address.
    public init(publications: [ServedPublication], configuration: ServerConfiguration = ServerConfiguration())
        throws(PublicationServerError) {
        if !configuration.isLoopback, let protected = publications.first(where: { $0.publication.isProtected }) {
            throw .protectedOffLoopback(id: protected.id)
        }
        self.configuration = configuration
        responder = PublicationResponder(secret: configuration.secret, publications: publications,
                                         limit: ConcurrencyLimit(configuration.maxConcurrentRequests))
    }

    /// Where the server listens, once it does.
    public struct Listening: Sendable {
        public let host: String
        public let port: Int
        public let secret: ServerSecret

        /// `http://HOST:PORT` (an IPv6 address in brackets).
        public var origin: String {
            "http://" + (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        }

        /// The reader page of the publication `id`; its manifest is this URL + `manifest.json`.
        public func readerURL(id: String) -> String {
            origin + "/\(secret)/pub/\(id)/"
        }

        /// The reader page of the publication `id` opened at `href` (a reading-order href,
        /// with its fragment), in the URL's fragment as the page's script reads it.
        public func readerURL(id: String, at href: String) -> String {
            var fragment = ""
            for byte in href.utf8 {
                // What JavaScript's encodeURIComponent keeps.
                if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-_.!~*'()".utf8.contains(byte) {
                    fragment.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    let hex = String(byte, radix: 16, uppercase: true)
                    fragment += "%" + (hex.count == 1 ? "0" + hex : hex)
                }
            }
            return readerURL(id: id) + "#" + fragment
        }
    }

    /// Runs until cancelled or, with `handlingSignals`, until SIGINT or SIGTERM; then stops
    /// accepting, lets the requests under way finish, and returns. On the default loopback
    /// address it listens on `127.0.0.1` and, at the same port, on `::1` when the machine has it.
    /// - Parameter onListening: called once the sockets listen, with the primary address.
    public func run(handlingSignals: Bool, onListening: @escaping @Sendable (Listening) async -> Void) async throws {
        let configuration = configuration
        let responder = responder
        // The port is known once the first socket listens (port 0 picks one); the second
        // address is bound to that same port.
        let (ports, portReady) = AsyncStream.makeStream(of: Int.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { portReady.finish() }
                try await Self.application(responder: responder, configuration: configuration, host: configuration.host,
                                           port: configuration.port) { port in
                    portReady.yield(port)
                }.run(handlingSignals: handlingSignals)
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else {
                // The first address could not be bound: its error ends the run.
                try await group.waitForAll()
                return
            }
            if let second = configuration.ipv6LoopbackHost {
                let (bound, boundReady) = AsyncStream.makeStream(of: Bool.self)
                group.addTask {
                    defer { boundReady.finish() }
                    do {
                        try await Self.application(responder: responder, configuration: configuration, host: second,
                                                   port: port) { _ in boundReady.yield(true) }
                            .run(handlingSignals: handlingSignals)
                    } catch {
                        // No IPv6 on this machine (or the port is taken there): IPv4 only.
                        boundReady.yield(false)
                    }
                }
                var boundIterator = bound.makeAsyncIterator()
                _ = await boundIterator.next()
            }
            let listening = Listening(host: configuration.host, port: port, secret: configuration.secret)
            responder.listening.set(host: configuration.host, port: port, origin: listening.origin)
            await onListening(listening)
            try await group.waitForAll()
        }
    }

    /// The Hummingbird application listening on `host`:`port`.
    private static func application(responder: PublicationResponder, configuration: ServerConfiguration, host: String, port: Int,
                                    onRunning: @escaping @Sendable (Int) async -> Void) -> Application<PublicationResponder> {
        Application(
            responder: responder,
            server: .http1(configuration: .init(
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
