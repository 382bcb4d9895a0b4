import Shared

/// A host whose remote resources may be on a loopback or private address, from
/// `lectern serve --allow-host HOST[:PORT]` (e.g. `192.168.1.20:8080` for a NAS, or the
/// person's own test server on `127.0.0.1:PORT`).
public struct AllowedHost: Sendable, Equatable {
    /// The host, lowercased, with its port when one was given (then only that port matches).
    public let authority: String

    /// Reads `HOST[:PORT]` (`[v6]:PORT` for an IPv6 address with a port); nil when it holds a
    /// path, user information, a space or a line break.
    public init?(parsing text: String) {
        let authority = text.trimmingSpaces
        guard !authority.isEmpty, !authority.contains(where: { "/@?# \t\r\n".contains($0) }) else { return nil }
        self.authority = authority.lowercased()
    }

    /// Whether `url` is on this host (and port, when given).
    public func matches(_ url: String) -> Bool {
        RemoteAuthority.matches(authority, url: url)
    }
}

/// How a `HOST[:PORT]` given on the command line matches a URL's authority.
enum RemoteAuthority {
    /// Whether `url` (http or https) is on `authority`'s host, and port when it has one (the
    /// scheme's default port when the URL has none).
    static func matches(_ authority: String, url: String) -> Bool {
        guard let scheme = Href.scheme(of: url)?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        let rest = url.dropFirst(scheme.count + 3)
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var target = rest[..<end].lowercased()
        if let at = target.lastIndex(of: "@") { target = String(target[target.index(after: at)...]) }
        let (host, port) = split(target)
        let (wantedHost, wantedPort) = split(authority)
        guard host == wantedHost else { return false }
        guard let wantedPort else { return true }
        return (port ?? (scheme == "https" ? 443 : 80)) == wantedPort
    }

    /// `host` and port of `host[:port]` (`[v6]:port` too).
    static func split(_ authority: String) -> (host: String, port: Int?) {
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]) else {
            return (authority, nil)
        }
        let host = authority[..<colon]
        // A bare IPv6 address has colons of its own: its port needs brackets.
        if host.contains(":"), !(host.hasPrefix("[") && host.hasSuffix("]")) { return (authority, nil) }
        return (String(host), port)
    }
}

extension AllowedHost {
    /// The host and port of an http(s) `url` (its scheme's default port when it has none).
    public init?(origin url: String) {
        guard let scheme = Href.scheme(of: url)?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        let rest = url.dropFirst(scheme.count + 3)
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let (host, port) = RemoteAuthority.split(authority.lowercased())
        self.init(parsing: host + ":\(port ?? (scheme == "https" ? 443 : 80))")
    }
}
