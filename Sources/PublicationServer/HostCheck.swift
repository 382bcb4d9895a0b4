import Hummingbird
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// The `Host` header check against DNS rebinding: a web page of another origin whose name
/// was made to resolve to 127.0.0.1 sends its own name as `Host`, and is refused.
struct HostCheck: Sendable {
    /// The accepted `Host` values, lowercased (`127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT`,
    /// or the `--listen` address with its port; on `0.0.0.0` or `::`, the machine's own
    /// addresses and name too).
    let accepted: Set<String>

    init(host: String, port: Int, resolver: HostResolver = .system) {
        var names: Set<String> = []
        let loopbackNames: Set<String> = ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"]
        if let literal = IPAddress(host), literal.isUnspecified {
            // Listening on every address: a browser reaches the server by any of the machine's
            // addresses (`::` takes IPv4 too) or its name, and never by a name of another site.
            names = loopbackNames
            for address in resolver.interfaceAddresses() where literal.bytes.count == 16 || address.bytes.count == 4 {
                names.insert(Self.authority(address.description, port: port))
            }
            if let name = Self.hostName() { names.insert(name.lowercased() + ":\(port)") }
        } else if ServerConfiguration.isLoopback(host, resolver: resolver) {
            names = loopbackNames
        }
        names.insert(Self.authority(host, port: port))
        accepted = names
    }

    /// `host:port`, an IPv6 address in brackets, lowercased.
    static func authority(_ host: String, port: Int) -> String {
        (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host).lowercased() + ":\(port)"
    }

    /// This machine's name, as `gethostname` gives it.
    static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }

    /// Whether the request's `Host` is ours; a request without one (HTTP/1.0) is refused too.
    func accepts(_ host: String?) -> Bool {
        guard let host else { return false }
        return accepted.contains(host.lowercased())
    }

    /// The 400 answer to a request with more than one `Host` field (RFC 9112 §3.2), which
    /// different parties could read differently; nil for any other request. The first `Host`
    /// became the request's authority: any left among the fields is a second one.
    static func refusal(ofDuplicateHostIn fields: HTTPFields) -> Response? {
        guard fields.contains(where: { $0.name.canonicalName == "host" }) else { return nil }
        return ServerResponse.text(.badRequest, "A request has exactly one Host header\n")
    }
}
