/// The `Host` header check against DNS rebinding: a web page of another origin whose name
/// was made to resolve to 127.0.0.1 sends its own name as `Host`, and is refused.
struct HostCheck: Sendable {
    /// The accepted `Host` values, lowercased (`127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT`,
    /// or the `--listen` address with its port).
    let accepted: Set<String>

    init(host: String, port: Int) {
        var names: Set<String> = []
        if ServerConfiguration.isLoopback(host) {
            names = ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"]
        }
        names.insert((host.contains(":") ? "[\(host)]" : host).lowercased() + ":\(port)")
        accepted = names
    }

    /// Whether the request's `Host` is ours; a request without one (HTTP/1.0) is refused too.
    func accepts(_ host: String?) -> Bool {
        guard let host else { return false }
        return accepted.contains(host.lowercased())
    }
}
